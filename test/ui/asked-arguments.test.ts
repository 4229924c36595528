import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/core/person/approval-request.js";
import { OpenQuestions } from "../../src/ui/panels/open-questions.js";
import { initialTranscriptState, transcriptReducer } from "../../src/ui/transcript/transcript-reducer.js";
import { proposed, TURN_START } from "../support/app-harness.js";

function request(callId: string, args: Record<string, unknown>, withheld: boolean): ApprovalRequest {
  return {
    callId,
    server: "fixture",
    tool: "write_note",
    tier: "dangerous",
    tierReason: "destructiveHint",
    reason: "the arguments hold a secret: (the arguments) (known-secret)",
    arguments: args,
    ...(withheld ? { argumentsWithheld: true } : {}),
    notes: [],
  };
}

describe("a call asked about whose events withhold its arguments", () => {
  it("is drawn with the arguments the person is asked with, and another call as its events have it", () => {
    let state = transcriptReducer(initialTranscriptState(), TURN_START);
    for (const [id, args] of [
      ["c1", { to: "[REDACTED]", body: "[REDACTED]" }],
      ["c2", { name: "b.md" }],
    ] as const)
      state = transcriptReducer(state, { type: "tool_call_proposed", call: proposed(id, args) });
    const questions = new OpenQuestions(
      (asking) => (state = transcriptReducer(state, { type: "ui_asking", asking })),
      () => undefined,
    );
    const stop = new AbortController();
    void questions.approveCall(
      request("c1", { to: "ann@example.com", body: "key is [REDACTED]" }, true),
      stop.signal,
    );
    void questions.approveCall(request("c2", { name: "other.md" }, false), stop.signal);
    const [first, second] = state.turn?.calls ?? [];
    expect(first?.args).toEqual({ to: "ann@example.com", body: "key is [REDACTED]" });
    expect(first?.rawArguments).toBe('{"to":"ann@example.com","body":"key is [REDACTED]"}');
    expect(second?.args).toEqual({ name: "b.md" });
    stop.abort();
  });
});
