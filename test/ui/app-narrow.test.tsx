import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/core/agent/events.js";
import { displayWidth } from "../../src/core/text/index.js";
import { proposed, renderApp, TURN_START } from "../support/app-harness.js";

const longCall = (id: string): AgentEvent => ({
  type: "tool_call_proposed",
  call: {
    ...proposed(id, { path: "notes/a-very-long-file-name-for-the-test.md", text: "hello" }),
    server: "filesystem-with-a-long-name",
    tool: "write_text_file_somewhere",
  },
});

/** Every line of the frame fits in `columns`: nothing wraps onto a line of its own by accident. */
function widest(frame: string): number {
  return Math.max(...frame.split("\n").map((line) => displayWidth(line)));
}

describe("at 40 columns", () => {
  it("the approval panel keeps its badge whole, shortens the name in the middle and fits its hints", async () => {
    const { store, until, frame } = await renderApp([TURN_START], { columns: 40 });
    store.dispatch(longCall("c1"));
    store.dispatch(longCall("c2"));
    store.dispatch({
      type: "approval_requested",
      callId: "c1",
      reason: "dangerous calls need a person's yes",
    });
    await until(() => frame().includes("Allow this call?"), "the approval panel");
    const screen = frame();
    expect(widest(screen)).toBeLessThanOrEqual(40);
    expect(screen).toContain("[dangerous]");
    expect(screen).not.toMatch(/\[dangero\s*$/m);
    expect(screen).toMatch(/filesystem-with…somewhere #1|filesystem[^\n]*…[^\n]*somewhere #1/);
    expect(screen).toContain("1/2");
    expect(screen).toMatch(/› 1\. Deny \(n\)/);
    expect(screen).toMatch(/then \[dangerous] filesys[^\n]*…[^\n]*#2/);
    // Each "always" keeps its scope, so the one saved for good is told from the session's.
    expect(screen).toMatch(/4\. [^\n]*[Ss]ession \(a\) *│$/m);
    expect(screen).toMatch(/5\. [^\n]*project \(p\) *│$/m);
    expect(screen).toMatch(/Enter confirm · Esc deny/);
  });

  it("finished panels, the status line and the key hints fit on their lines", async () => {
    const { store, until, frame } = await renderApp([TURN_START], { columns: 40 });
    store.dispatch(longCall("c1"));
    store.dispatch({
      type: "tool_result",
      callId: "c1",
      ok: true,
      forModel: "ok",
      display: "wrote 5 bytes to notes/a-very-long-file-name-for-the-test.md",
      truncated: false,
      redactions: [],
      durationMs: 12,
      failure: undefined,
    });
    store.dispatch({
      type: "turn_end",
      turn: 1,
      reason: "completed",
      answer: "",
      steps: 1,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      deniedCalls: 0,
    });
    store.dispatch({ type: "ui_model", name: "a-model-with-a-long-name", problem: undefined });
    store.dispatch({ type: "ui_kb", kb: { state: "ready", chunks: 120, files: 4 } });
    await until(() => frame().includes("done in") && frame().includes("a-model-with"), "the finished panel");
    const screen = frame();
    expect(widest(screen)).toBeLessThanOrEqual(40);
    expect(screen).toMatch(/\[dangerous] filesystem[^\n]*…[^\n]*#1/);
    expect(screen).toContain("Enter send · Ctrl+D exit");
  });
});

describe("narrower still", () => {
  it.each([30, 24, 20])(
    "at %i columns the two always-allow options still say their scope",
    async (columns) => {
      const { store, until, frame } = await renderApp([TURN_START], { columns, rows: 40 });
      store.dispatch(longCall("c1"));
      store.dispatch({
        type: "approval_requested",
        callId: "c1",
        reason: "dangerous calls need a person's yes",
      });
      await until(() => frame().includes("(p)"), "the approval panel's options");
      const screen = frame();
      expect(widest(screen)).toBeLessThanOrEqual(columns);
      expect(screen).toMatch(/4\. [^\n]*[Ss]ession \(a\)/);
      expect(screen).toMatch(/5\. [^\n]*[Pp]roject \(p\)/);
    },
  );
});
