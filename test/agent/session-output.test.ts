import { describe, expect, it } from "vitest";
import type { AgentEvent, ProposedToolCall } from "../../src/core/agent/events.js";
import { SessionOutput } from "../../src/core/agent/session-output.js";
import { redactWithPatterns } from "../../src/core/policy/secret-patterns.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";

const output = (): SessionOutput =>
  new SessionOutput({
    redact: (text) => redactWithPatterns(text, ["known-value-1234"]).text,
    spacedSecrets: [],
  });

function pass(events: AgentEvent[]): AgentEvent[] {
  const boundary = output();
  return events.flatMap((event) => boundary.pass(event));
}

const call = (args: Record<string, unknown>): ProposedToolCall => ({
  id: "c1",
  step: 1,
  modelName: "s__send",
  server: "s",
  tool: "send",
  arguments: args,
  rawArguments: JSON.stringify(args),
  tier: "external",
  tierReason: "name",
  toolNotes: [],
  problem: undefined,
});

describe("SessionOutput", () => {
  it("releases text held for a possible secret before the next event, so order is kept", () => {
    const out = pass([
      { type: "text_delta", step: 1, delta: "the key is sk-" },
      { type: "text_delta", step: 1, delta: FAKE_OPENAI_KEY.slice(3) },
      {
        type: "model_step_end",
        step: 1,
        finishReason: "stop",
        usage: undefined,
        latencyMs: 1,
        firstTokenMs: 1,
        toolCalls: 0,
      },
    ]);
    expect(out.map((event) => event.type)).toEqual(["text_delta", "text_delta", "model_step_end"]);
    const text = out.map((event) => (event.type === "text_delta" ? event.delta : "")).join("");
    expect(text).toBe("the key is [REDACTED]");
  });

  it("redacts proposed arguments as strings and as the JSON they travel as", () => {
    const [event] = pass([
      {
        type: "tool_call_proposed",
        call: call({ body: `use ${FAKE_OPENAI_KEY}`, note: "known-value-1234", password: "hunter2-hunter2" }),
      },
    ]);
    const text = JSON.stringify(event);
    expect(text).not.toContain(FAKE_OPENAI_KEY);
    expect(text).not.toContain("known-value-1234");
    expect(text).not.toContain("hunter2-hunter2");
    expect(event?.type === "tool_call_proposed" && event.call.arguments).toEqual({
      body: "use [REDACTED]",
      note: "[REDACTED]",
      password: "[REDACTED]",
    });
  });

  it("redacts the input, warnings, errors, reasons and the answer", () => {
    const secret = `known-value-1234 ${FAKE_OPENAI_KEY}`;
    const out = pass([
      {
        type: "turn_start",
        turn: 1,
        input: secret,
        at: "now",
        attached: { attachments: [], forModel: secret },
      },
      { type: "warning", message: secret },
      { type: "error", code: "llm", message: secret, exitCode: 1 },
      {
        type: "approval_decided",
        callId: "c1",
        approved: false,
        by: "user",
        reason: secret,
        tier: "dangerous",
        tierReason: "destructiveHint",
        argumentSecrets: [],
      },
      { type: "model_retry", step: 1, attempt: 1, delayMs: 1, reason: secret },
      { type: "tool_progress", callId: "c1", progress: 1, total: undefined, message: secret },
      {
        type: "turn_end",
        turn: 1,
        reason: "completed",
        answer: secret,
        steps: 1,
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        deniedCalls: 0,
      },
    ]);
    expect(JSON.stringify(out)).not.toMatch(/known-value-1234|sk-proj/);
    expect(out).toHaveLength(7);
  });

  it("passes knowledge passages on as they are, and redacts what a tool result says (a failure can quote a secret)", () => {
    const result: AgentEvent = {
      type: "tool_result",
      callId: "c1",
      ok: false,
      forModel: "The call failed: backend refused token known-value-1234",
      display: "The call failed: backend refused token known-value-1234",
      truncated: false,
      redactions: [],
      durationMs: 3,
      failure: "business",
      structured: '{ "token": "known-value-1234" }',
      outputSchemaProblem: "The structuredContent does not match at /known-value-1234: it must be number.",
    };
    const hits: AgentEvent = { type: "kb_hits", hits: [] };
    const [first, second] = pass([result, hits]);
    expect(first).toMatchObject({
      forModel: "The call failed: backend refused token [REDACTED]",
      display: "The call failed: backend refused token [REDACTED]",
      structured: '{ "token": "[REDACTED]" }',
      outputSchemaProblem: "The structuredContent does not match at /[REDACTED]: it must be number.",
    });
    expect(second).toBe(hits);
  });
});
