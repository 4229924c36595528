import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPROVAL_GUARD_MS } from "../../src/ui/keys/approval-guard.js";
import type { RecordedRequest, ScriptedReply } from "../support/scripted-model-server.js";
import { openFixtureTui, type FixtureTui } from "../support/fixture-tui.js";

/**
 * A model that gives two calls of one step the same id (a hostile one on purpose, a careless one
 * by numbering every call call_0), in the real binary in tmux: the approval panel shows the call
 * it asks about, not the one running under the same id, and each call keeps its own result.
 */
let tui: FixtureTui;

function reply(request: RecordedRequest): ScriptedReply {
  const messages = (request.body as { messages: Array<{ role: string }> }).messages;
  if (messages.at(-1)?.role === "tool") return { text: "Done." };
  // A read that runs unasked while the next call, under the same id, is asked about.
  return {
    toolCalls: [
      { id: "call_0", name: "fixture__slow", arguments: JSON.stringify({ ms: 4000 }) },
      {
        id: "call_0",
        name: "fixture__write_note",
        arguments: JSON.stringify({ name: "overwritten.md", text: "not what you saw" }),
      },
    ],
  };
}

beforeAll(async () => {
  tui = await openFixtureTui("call-ids", reply, { columns: 110, rows: 40 });
});

afterAll(() => tui.close());

describe("a call id the model gave two calls of one step", () => {
  it("asks about the call that waits, with its own tool and arguments", async () => {
    const { terminal } = tui;
    await terminal.waitFor((screen) => screen.includes("1/1 servers ready"), "the server");
    terminal.text("note it");
    await terminal.waitFor((screen) => screen.includes("› note it"), "the message typed");
    terminal.text("\r");
    const asked = await terminal.waitFor(
      (screen) => screen.includes("Allow this call?"),
      "the approval panel",
    );
    const panel = asked.slice(asked.indexOf("Allow this call?"));
    expect(panel, asked).toContain("write_note");
    expect(panel, asked).toContain("overwritten.md");
    expect(panel, asked).not.toContain("fixture/slow");
    // Past the guard that gives keys typed as the panel appears to the prompt.
    await delay(APPROVAL_GUARD_MS + 200);
    terminal.text("n");
    const done = await terminal.waitFor((screen) => screen.includes("Done."), "the turn's end");
    expect(done).toMatch(/fixture\/slow[^]*done in/);
    expect(done).toMatch(/fixture\/write_note[^]*denied/);
  }, 90_000);
});
