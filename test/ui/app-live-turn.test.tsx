import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/core/agent/events.js";
import { proposed, renderApp, TURN_START } from "../support/app-harness.js";

const ask = (id: string): AgentEvent => ({
  type: "approval_requested",
  callId: id,
  reason: "dangerous calls need a person's yes",
});
const decided = (id: string): AgentEvent => ({
  type: "approval_decided",
  callId: id,
  approved: false,
  by: "user",
  reason: "the user denied it",
  tier: "dangerous",
  tierReason: "destructiveHint",
  argumentSecrets: [],
});
const denied = (id: string): AgentEvent => ({
  type: "tool_result",
  callId: id,
  ok: false,
  forModel: "denied",
  display: "denied",
  truncated: false,
  redactions: [],
  durationMs: 0,
  failure: "permission",
});

describe("the live turn", () => {
  it("asks about two calls of one step in order, numbered, with the second listed below the first", async () => {
    const { store, until, frame } = await renderApp([
      TURN_START,
      { type: "tool_call_proposed", call: proposed("c1", { name: "first.md" }) },
      { type: "tool_call_proposed", call: proposed("c2", { name: "second.md" }) },
      ask("c1"),
    ]);
    await until(() => frame().includes("Allow this call? (1 of 2)"), "the first panel, numbered");
    const first = frame();
    expect(first).toContain('"name": "first.md"');
    expect(first.indexOf("then [dangerous] fixture/write_note #2")).toBeGreaterThan(
      first.indexOf("Allow this call?"),
    );
    expect(first).not.toMatch(/#2[^\n]*\n[^\n]*queued/);
    for (const event of [decided("c1"), denied("c1"), ask("c2")]) store.dispatch(event);
    await until(() => frame().includes("Allow this call? (2 of 2)"), "the second panel, numbered");
    expect(frame()).toContain('"name": "second.md"');
    expect(frame()).not.toContain("then [dangerous]");
  });

  it("draws streamed words at once, before any line or paragraph is complete", async () => {
    const { store, until, frame } = await renderApp([TURN_START]);
    store.dispatch({ type: "text_delta", step: 1, delta: "The first few words " });
    await until(() => frame().includes("The first few words"), "the words so far");
    store.dispatch({ type: "text_delta", step: 1, delta: "and then some more" });
    await until(() => frame().includes("The first few words and then some more"), "the next words");
  });

  it("shows the turn's elapsed time and its answer tokens on the status line as they stream", async () => {
    const { store, until, frame } = await renderApp([]);
    await until(() => /0 tokens/.test(frame()), "the idle status line");
    store.dispatch({ type: "turn_start", turn: 1, input: "go", at: new Date().toISOString() });
    store.dispatch({ type: "text_delta", step: 1, delta: "x".repeat(40) });
    const status = (): string =>
      frame()
        .split("\n")
        .find((line) => /↓ ~?\d/.test(line)) ?? "";
    await until(() => status().includes("↓ ~10 tokens"), "the streamed tokens, estimated");
    const clock = (): string => /(\d+(?:\.\d)? (?:ms|s)) · ↓/.exec(status())?.[1] ?? "";
    const first = clock();
    expect(first).not.toBe("");
    await until(() => clock() !== "" && clock() !== first, "the elapsed time to move");
    store.dispatch({
      type: "model_step_end",
      step: 1,
      finishReason: "stop",
      usage: { promptTokens: 100, completionTokens: 12, totalTokens: 112 },
      latencyMs: 1,
      firstTokenMs: 1,
      toolCalls: 0,
    });
    await until(() => status().includes("↓ 12 tokens"), "the reported tokens");
    store.dispatch({
      type: "turn_end",
      turn: 1,
      reason: "completed",
      answer: "",
      steps: 1,
      usage: { promptTokens: 100, completionTokens: 12, totalTokens: 112 },
      deniedCalls: 0,
    });
    await until(
      () => frame().includes("112 tokens") && !/↓ ~?\d/.test(frame()),
      "the session's tokens once idle",
    );
  });
});
