import { describe, expect, it } from "vitest";
import type { AgentEvent, ProposedToolCall } from "../../src/core/agent/events.js";
import { UsageError } from "../../src/core/errors.js";
import { toOtlpJson } from "../../src/core/trace/trace-otlp.js";
import { parseTrace } from "../../src/core/trace/trace-reader.js";
import { renderTraceTree } from "../../src/core/trace/trace-tree.js";
import { renderWire } from "../../src/core/trace/trace-wire.js";

const T0 = Date.parse("2025-01-01T00:00:00.000Z");
const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };

const call = (id: string, overrides: Partial<ProposedToolCall> = {}): ProposedToolCall => ({
  id,
  step: 1,
  modelName: "fs__read",
  server: "fs",
  tool: "read",
  arguments: { path: "a" },
  rawArguments: '{"path":"a"}',
  tier: "read_only",
  tierReason: "name: read",
  toolNotes: [],
  problem: undefined,
  ...overrides,
});

/** A session as the recorder writes it: `ts` on every record. */
function session(turnInput = "hello"): object[] {
  const events: Array<[number, AgentEvent | object]> = [
    [
      0,
      {
        type: "session_start",
        sessionId: "s1",
        version: "9.9.9",
        model: "gpt-x",
        servers: ["fs"],
        cwd: "/p",
      },
    ],
    [
      1,
      {
        type: "wire",
        server: "fs",
        direction: "send",
        at: T0 + 1,
        message: { jsonrpc: "2.0", id: 1, method: "initialize" },
      },
    ],
    [
      2,
      {
        type: "wire",
        server: "fs",
        direction: "receive",
        at: T0 + 2,
        message: { jsonrpc: "2.0", id: 1, result: {} },
      },
    ],
    [10, { type: "turn_start", turn: 1, input: turnInput, at: new Date(T0 + 10).toISOString() }],
    [
      12,
      {
        type: "kb_hits",
        hits: [{ path: "k.md", startLine: 1, endLine: 2, heading: "", score: 1, text: "t" }],
      },
    ],
    [15, { type: "model_request", step: 1, messageCount: 2, tools: ["fs__read"] }],
    [16, { type: "model_retry", step: 1, attempt: 1, delayMs: 5, reason: "HTTP 429" }],
    [
      40,
      {
        type: "model_step_end",
        step: 1,
        finishReason: "tool_calls",
        usage,
        latencyMs: 25,
        firstTokenMs: 9,
        toolCalls: 1,
      },
    ],
    [41, { type: "tool_call_proposed", call: call("c1") }],
    [
      42,
      {
        type: "approval_decided",
        callId: "c1",
        approved: true,
        by: "config",
        reason: "read_only runs without asking",
      },
    ],
    [43, { type: "tool_started", callId: "c1" }],
    [44, { type: "tool_progress", callId: "c1", progress: 1, total: 2, message: undefined }],
    [50, { type: "raw_result", callId: "c1", result: { content: [{ type: "text", text: "RAW" }] } }],
    [
      51,
      {
        type: "tool_result",
        callId: "c1",
        ok: true,
        forModel: "<tool_output>shaped</tool_output>",
        display: "shaped",
        truncated: true,
        redactions: ["openai-api-key"],
        durationMs: 8,
        failure: undefined,
      },
    ],
    [52, { type: "model_request", step: 2, messageCount: 4, tools: ["fs__read"] }],
    [53, { type: "text_delta", step: 2, delta: "Do" }],
    [54, { type: "text_delta", step: 2, delta: "ne." }],
    [
      60,
      {
        type: "model_step_end",
        step: 2,
        finishReason: "stop",
        usage,
        latencyMs: 8,
        firstTokenMs: 1,
        toolCalls: 0,
      },
    ],
    [
      61,
      { type: "turn_end", turn: 1, reason: "completed", answer: "Done.", steps: 2, usage, deniedCalls: 0 },
    ],
    [70, { type: "session_end" }],
  ];
  return events.map(([offset, record]) => ({ ...record, ts: T0 + offset }));
}

const jsonl = (records: object[]): string => records.map((record) => `${JSON.stringify(record)}\n`).join("");

describe("parseTrace", () => {
  it("groups a turn into knowledge hits, model steps, tool calls and the answer, with durations", () => {
    const trace = parseTrace(jsonl(session()), "t.jsonl");
    expect(trace.problems).toEqual([]);
    expect(trace.sessions).toMatchObject([
      { sessionId: "s1", model: "gpt-x", startedAt: T0, endedAt: T0 + 70 },
    ]);
    expect(trace.wire).toHaveLength(2);
    const [turn] = trace.turns;
    expect(turn).toMatchObject({
      index: 1,
      turn: 1,
      input: "hello",
      durationMs: 51,
      sessionId: "s1",
      model: "gpt-x",
    });
    expect(turn?.knowledge).toMatchObject({ durationMs: 2, hits: [{ path: "k.md" }] });
    expect(turn?.steps).toMatchObject([
      {
        step: 1,
        durationMs: 25,
        firstTokenMs: 9,
        finishReason: "tool_calls",
        messageCount: 2,
        retries: [{ attempt: 1 }],
      },
      { step: 2, durationMs: 8, text: "Done.", toolCalls: [] },
    ]);
    expect(turn?.steps[0]?.toolCalls[0]).toMatchObject({
      id: "c1",
      approval: { approved: true, by: "config", asked: false, waitMs: undefined },
      startedAt: T0 + 43,
      durationMs: 8,
      progressUpdates: 1,
      rawResult: { content: [{ type: "text", text: "RAW" }] },
      result: { ok: true, display: "shaped", truncated: true },
      guardrails: [
        "redacted 1 secret(s) from the result (openai-api-key)",
        "result truncated to fit the model's context",
      ],
    });
    expect(turn?.end).toMatchObject({ reason: "completed", answer: "Done." });
  });

  it("takes a call's tier from its decision, which a server's change may have made another", () => {
    const records = session().map((record) =>
      (record as { type?: string }).type === "approval_decided"
        ? { ...record, approved: false, by: "policy", tier: "dangerous", tierReason: "destructiveHint" }
        : record,
    );
    const trace = parseTrace(jsonl(records), "t.jsonl");
    const [decided] = trace.turns[0]?.steps[0]?.toolCalls ?? [];
    expect([decided?.tier, decided?.tierReason]).toEqual(["dangerous", "destructiveHint"]);
    const spans = JSON.stringify(toOtlpJson(trace, { contents: false }));
    expect(spans).toContain('"key":"mcpterm.tool.tier","value":{"stringValue":"dangerous"}');
    // A trace written before decisions carried a tier keeps the proposal's.
    const [older] = parseTrace(jsonl(session()), "t.jsonl").turns[0]?.steps[0]?.toolCalls ?? [];
    expect(older?.tier).toBe("read_only");
  });

  it("tolerates a half-written last line, lines that are not JSON and unknown record types", () => {
    const text = `${jsonl(session())}not json\n${JSON.stringify({ type: "from_the_future", ts: 1 })}\n{"type":"turn_sta`;
    const trace = parseTrace(text);
    expect(trace.turns).toHaveLength(1);
    expect(trace.unknownRecords).toBe(1);
    expect(trace.problems).toEqual([
      "line 21 is not JSON",
      "the last line is incomplete (the process probably stopped while writing it)",
    ]);
  });

  it("keeps a turn that never ended, with its pending call and the time up to the last record", () => {
    const cut = session().slice(0, 12);
    const trace = parseTrace(jsonl(cut));
    const [turn] = trace.turns;
    expect(turn?.end).toBeUndefined();
    expect(turn?.durationMs).toBe(34);
    expect(turn?.steps[0]?.toolCalls[0]?.guardrails).toEqual([
      "no result recorded (the turn stopped while this call was pending)",
    ]);
    expect(renderTraceTree(trace)).toMatch(
      /turn 1: "hello" \(34 ms, did not finish \(the process stopped mid-turn\)\)/,
    );
  });

  it("reads traces without `ts` (the older writer) from their `at` fields", () => {
    const old = session().map((record) => {
      const { ts, ...rest } = record as { ts: number };
      return { at: ts, ...rest };
    });
    const trace = parseTrace(jsonl(old));
    expect(trace.turns[0]?.durationMs).toBe(51);
  });

  it("numbers turns across the sessions appended to one file, and records a denial as a guardrail", () => {
    const denied = session("second").map((record) => {
      const event = record as { type: string };
      return event.type === "approval_decided"
        ? { ...record, approved: false, by: "policy", reason: "dangerous needs a person" }
        : record;
    });
    const trace = parseTrace(jsonl([...session(), ...denied]));
    expect(trace.turns.map((turn) => [turn.index, turn.turn, turn.input])).toEqual([
      [1, 1, "hello"],
      [2, 1, "second"],
    ]);
    expect(trace.turns[1]?.steps[0]?.toolCalls[0]?.guardrails[0]).toBe(
      "denied by policy: dangerous needs a person",
    );
  });
});

describe("renderTraceTree", () => {
  it("draws the turn with a duration on every node, sanitized", () => {
    const records = session("say \u001b[31mred\u001b[0m");
    const tree = renderTraceTree(parseTrace(jsonl(records), "t.jsonl"));
    expect(tree).toBe(
      [
        "trace t.jsonl · session s1 · mcpterm 9.9.9 · model gpt-x",
        'turn 1: "say \\u001b[31mred\\u001b[0m" (51 ms, completed)',
        "├─ knowledge: 1 hit(s) (2 ms)",
        "│  └─ k.md:1-2 (score 1.00)",
        "├─ model step 1 (25 ms, first token 9 ms, finish tool_calls, 10 in / 5 out tokens, 2 messages, 1 tools offered)",
        "│  ├─ retry 1 after 5 ms: HTTP 429",
        "│  └─ tool fs/read (8 ms, ok)",
        "│     ├─ tier read_only: name: read",
        '│     ├─ arguments {"path":"a"}',
        "│     ├─ approved by config: read_only runs without asking",
        "│     ├─ 1 progress update(s)",
        '│     ├─ raw result {"content":[{"type":"text","text":"RAW"}]}',
        "│     ├─ result shaped",
        "│     ├─ guardrail: redacted 1 secret(s) from the result (openai-api-key)",
        "│     └─ guardrail: result truncated to fit the model's context",
        "├─ model step 2 (8 ms, first token 1 ms, finish stop, 10 in / 5 out tokens, 4 messages, 1 tools offered)",
        "└─ answer (2 step(s), 51 ms, 10 in / 5 out tokens)",
        "   └─ Done.",
        "",
      ].join("\n"),
    );
    const painted = records.map((record) =>
      (record as { type: string }).type === "turn_end"
        ? { ...record, answer: "\u001b]52;c;Y2xpcA==\u0007Done" }
        : record,
    );
    expect(renderTraceTree(parseTrace(jsonl(painted)))).toContain("   └─ Done\n");
  });

  it("selects one turn and rejects a turn out of range with a UsageError", () => {
    const trace = parseTrace(jsonl([...session("one"), ...session("two")]));
    const tree = renderTraceTree(trace, { turn: 2 });
    expect(tree).toContain('turn 2: "two"');
    expect(tree).not.toContain('"one"');
    expect(() => renderTraceTree(trace, { turn: 3 })).toThrow(UsageError);
    expect(() => renderTraceTree(trace, { turn: 0 })).toThrow(
      "There is no turn 0 in this trace (turns are 1 to 2).",
    );
  });
});

describe("renderWire", () => {
  it("lists frames with offset, server, direction and method, filtered by server", () => {
    const trace = parseTrace(jsonl(session()));
    expect(renderWire(trace).split("\n")[0]).toBe(
      '+     0 ms  fs → initialize #1  {"jsonrpc":"2.0","id":1,"method":"initialize"}',
    );
    expect(renderWire(trace).split("\n")[1]).toMatch(/^\+ {5}1 ms {2}fs ← result #1 /);
    // A name the trace does not know (a typo) is told with the names it has.
    expect(renderWire(trace, { server: "other" })).toBe(
      '(no wire frames for server "other"; the trace has frames of "fs")\n',
    );
  });

  it("summarizes a base64 image and a long text unless --full asks for every string whole", () => {
    const image = "iVBORw0KGgo".repeat(4000);
    const text = "line of a long file ".repeat(50);
    const frame = {
      type: "wire",
      ts: T0 + 3,
      server: "fs",
      direction: "receive",
      at: T0 + 3,
      message: {
        jsonrpc: "2.0",
        id: 2,
        result: {
          content: [
            { type: "image", mimeType: "image/png", data: image },
            { type: "text", text },
          ],
        },
      },
    };
    const trace = parseTrace(jsonl([...session(), frame]));
    const shown = renderWire(trace);
    expect(shown).toContain('"data":"‹base64, 32.2 KB›"');
    expect(shown).toMatch(/"text":"line of a long file line of a long file [^"]*… ‹1000 chars›"/);
    expect(shown).not.toContain(image);
    expect(shown.trimEnd().split("\n").at(-1)).toBe("(2 long strings summarized; --full shows them whole)");
    const whole = renderWire(trace, { full: true });
    expect(whole).toContain(image);
    expect(whole).toContain(text);
    expect(whole).not.toContain("summarized");
  });
});

describe("toOtlpJson", () => {
  it("exports one trace per turn: an agent span, a chat span per model step and an execute_tool span per call", () => {
    const exported = toOtlpJson(parseTrace(jsonl(session())));
    const spans = exported.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    expect(spans.map((span) => span.name)).toEqual([
      "invoke_agent mcpterm",
      "chat gpt-x",
      "execute_tool read",
      "chat gpt-x",
    ]);
    const [agent, chat, tool] = spans;
    for (const span of spans) {
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(span.traceId).toBe(agent?.traceId);
      expect(BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano)).toBe(true);
    }
    expect(agent?.parentSpanId).toBeUndefined();
    expect(chat?.parentSpanId).toBe(agent?.spanId);
    expect(tool?.parentSpanId).toBe(chat?.spanId);
    expect(chat?.startTimeUnixNano).toBe(`${T0 + 15}000000`);
    expect(chat?.endTimeUnixNano).toBe(`${T0 + 40}000000`);
    const attrs = (span: typeof chat) =>
      Object.fromEntries((span?.attributes ?? []).map((a) => [a.key, a.value]));
    expect(attrs(chat)).toMatchObject({
      "gen_ai.operation.name": { stringValue: "chat" },
      "gen_ai.request.model": { stringValue: "gpt-x" },
      "gen_ai.usage.input_tokens": { intValue: "10" },
      "gen_ai.usage.output_tokens": { intValue: "5" },
      "gen_ai.response.finish_reasons": { arrayValue: { values: [{ stringValue: "tool_calls" }] } },
    });
    expect(attrs(tool)).toMatchObject({
      "gen_ai.operation.name": { stringValue: "execute_tool" },
      "gen_ai.tool.name": { stringValue: "read" },
      "gen_ai.tool.call.id": { stringValue: "c1" },
      "mcpterm.tool.tier": { stringValue: "read_only" },
      "mcpterm.approval.by": { stringValue: "config" },
      "mcpterm.tool.truncated": { boolValue: true },
    });
    expect(tool?.status).toEqual({ code: 1 });
    expect(exported.resourceSpans[0]?.resource.attributes).toContainEqual({
      key: "service.name",
      value: { stringValue: "mcpterm" },
    });
  });
});
