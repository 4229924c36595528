import { describe, expect, it } from "vitest";
import { keepShown, PROBLEM_WITHHELD, scannedCall } from "../../src/core/agent/arguments-shown.js";
import type { ProposedToolCall } from "../../src/core/agent/events.js";

const call = (
  id: string,
  args: Record<string, unknown> | undefined,
  raw: string,
  problem?: string,
): ProposedToolCall => ({
  id,
  step: 1,
  modelName: "m__t",
  server: "m",
  tool: "t",
  arguments: args,
  rawArguments: raw,
  tier: "dangerous",
  tierReason: "default",
  toolNotes: [],
  problem,
});

describe("scannedCall and keepShown", () => {
  it("withholds strings and numbers, keys for a finding across the arguments, and the problem's words", async () => {
    const found = () => Promise.resolve([{ path: "(the arguments)", rule: "known-secret" }]);
    const { call: shown } = await scannedCall(
      call("a", { to: "x", codes: [115, 107] }, "{}", "The arguments do not match: data/to bad"),
      found,
    );
    expect(shown.arguments).toEqual({
      "[REDACTED] 1": "[REDACTED]",
      "[REDACTED] 2": ["[REDACTED]", "[REDACTED]"],
    });
    expect(shown.problem).toBe(PROBLEM_WITHHELD);
    // Arguments that could not be read are scanned as their text, and withheld whole.
    const { call: unread } = await scannedCall(
      call("b", undefined, '{"to": "sk-', "The arguments are not valid JSON"),
      (args) =>
        Promise.resolve(
          JSON.stringify(args).includes("sk-") ? [{ path: "arguments", rule: "known-secret" }] : [],
        ),
    );
    expect(unread.rawArguments).toBe('"[REDACTED]"');
    expect(unread.problem).toBe(PROBLEM_WITHHELD);
  });

  it("keeps a problem that quotes nothing of the arguments (an unknown tool's names)", async () => {
    const found = () => Promise.resolve([{ path: "note", rule: "known-secret" }]);
    const unknown = 'Unknown tool "m__x". Available tools: m__t.';
    const { call: shown } = await scannedCall(call("c", { note: "k" }, "{}", unknown), found);
    expect(shown.problem).toBe(unknown);
  });

  it("keeps a proposal's arguments in the conversation's copy at its own place, when two calls share an id", () => {
    const asked = [
      { id: "d", name: "m__t", arguments: '{"note":"first"}' },
      { id: "d", name: "m__t", arguments: '{"note":"second"}' },
    ];
    keepShown(asked, 1, call("d", { note: "[REDACTED]" }, '{"note":"[REDACTED]"}'));
    expect(asked.map((entry) => entry.arguments)).toEqual(['{"note":"first"}', '{"note":"[REDACTED]"}']);
  });
});
