import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/core/agent/events.js";
import { summarizeBlobs } from "../../src/ui/parts/blob-summary.js";
import { proposed, renderApp, TURN_START } from "../support/app-harness.js";

/** Real base64 (of 900 bytes), which mixes cases and digits as encoded data does. */
const BLOB = Buffer.from(Array.from({ length: 900 }, (_, index) => (index * 37) % 256)).toString("base64");
const LINES = Array.from({ length: 401 }, (_, index) => `line ${index + 1}`).join("\n");

function finished(
  id: string,
  display: string,
  more: { structured?: string; outputSchemaProblem?: string } = {},
): AgentEvent[] {
  return [
    { type: "tool_call_proposed", call: proposed(id, { name: `${id}.md` }) },
    { type: "tool_started", callId: id },
    {
      type: "tool_result",
      callId: id,
      ok: true,
      forModel: "ok",
      display,
      truncated: false,
      redactions: [],
      durationMs: 3,
      failure: undefined,
      ...more,
    },
  ];
}

describe("the inspector", () => {
  it("scrolls a long result in place with PgUp/PgDn, j/k and g/G, while letters still type into a draft", async () => {
    const { until, press, frame, prompt } = await renderApp([TURN_START, ...finished("c1", LINES)], {
      rows: 30,
    });
    await press("\u000f");
    await until(() => frame().includes("Inspecting 1/1"), "the inspector");
    expect(frame()).toMatch(/lines 1–16 of 40\d/);
    expect(frame()).not.toContain("line 401");
    await press("G");
    await until(() => frame().includes("line 401"), "G to go to the bottom");
    expect(prompt()).toBe("");
    await press("g");
    await until(() => /lines 1–16 of/.test(frame()), "g to go to the top");
    await press("\u001b[6~");
    await until(() => /lines 16–31 of/.test(frame()), "PgDn to move a page, keeping a line");
    await press("j", "j");
    await until(() => /lines 18–33 of/.test(frame()), "j to move a line");
    await press("k");
    await until(() => /lines 17–32 of/.test(frame()), "k to move back a line");
    await press("\u001b[5~");
    await until(() => /lines 2–17 of/.test(frame()), "PgUp to move back a page");
    // With a draft in the prompt, the same letters are typing.
    await press("x", "jog");
    await until(() => prompt() === "xjog", "letters to type into the draft");
    expect(frame()).toMatch(/lines 2–17 of/);
  });

  it("summarizes a base64 blob until f shows it whole; Enter prints the panel in full", async () => {
    const blob = BLOB;
    const { until, press, frame } = await renderApp([TURN_START, ...finished("c1", `image: ${blob}`)]);
    await press("\u000f");
    await until(() => frame().includes("image: ‹base64, 900 B›"), "the summarized blob");
    expect(frame()).toContain("f show the blob whole");
    await press("f");
    await until(() => frame().includes(blob.slice(0, 60)), "f to show the blob whole");
    await press("f");
    await until(() => frame().includes("‹base64, 900 B›"), "f again to summarize it");
    await press("\r");
    await until(
      () => !frame().includes("Inspecting") && frame().includes(blob.slice(0, 60)),
      "Enter to print it",
    );
  });
});

describe("the inspector on structured content", () => {
  it("shows the outputSchema problem, the content and the structured content, its blobs summarized", async () => {
    const structured = JSON.stringify({ temperature: "warm", thumbnail: BLOB }, null, 2);
    const problem =
      "The structuredContent does not match the tool's outputSchema at /temperature: it must be number.";
    const { until, press, frame } = await renderApp(
      [TURN_START, ...finished("c1", '{"temperature":"warm"}', { structured, outputSchemaProblem: problem })],
      { rows: 40, columns: 120 },
    );
    await press("\u000f");
    await until(() => frame().includes("Inspecting 1/1"), "the inspector");
    const shown = frame();
    expect(shown).toContain(`⚠ ${problem}`);
    expect(shown).toMatch(/result \(1 line\):[\s│]*\{"temperature":"warm"\}/);
    expect(shown).toContain("structured content (4 lines):");
    expect(shown).toContain('"thumbnail": "‹base64, 900 B›"');
    expect(shown).toContain("f show the blob whole");
  });
});

describe("summarizeBlobs", () => {
  it.each([
    ["short text stays", "short text stays", 0],
    [`data ${BLOB} end`, "data ‹base64, 900 B› end", 1],
    [`<img src="data:image/png;base64,${BLOB}">`, '<img src="‹image/png, 900 B›">', 1],
    // Long runs of one or two character classes are words or digests, not encoded data.
    [`hex ${"0123456789abcdef".repeat(16)}`, `hex ${"0123456789abcdef".repeat(16)}`, 0],
    ["x ".repeat(750), `${"x ".repeat(100).slice(0, 199)}… ‹1301 more chars›`, 1],
  ])("%#", (text, expected, count) => {
    expect(summarizeBlobs(text)).toEqual({ text: expected, count });
  });
});
