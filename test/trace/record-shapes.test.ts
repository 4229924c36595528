import { describe, expect, it } from "vitest";
import { shapedRecord } from "../../src/core/trace/record-shapes.js";
import { toOtlpJson } from "../../src/core/trace/trace-otlp.js";
import { parseTrace } from "../../src/core/trace/trace-reader.js";
import { renderTraceTree } from "../../src/core/trace/trace-tree.js";
import { renderWire } from "../../src/core/trace/trace-wire.js";

const T0 = Date.parse("2026-01-01T00:00:00.000Z");
const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };

/** One record of every type a trace holds, as mcpterm writes them, in an order a session makes. */
const RECORDS: object[] = [
  { type: "session_start", sessionId: "s1", version: "9.9.9", model: "m", servers: ["fs"], cwd: "/p" },
  {
    type: "servers",
    servers: [
      {
        name: "fs",
        status: "connected",
        transport: "stdio",
        serverInfo: { name: "fs-server", version: "1.0.0" },
        era: "modern",
        protocolVersion: "2026-07-28",
        initializeMs: 12,
        tools: 2,
      },
    ],
  },
  {
    type: "wire",
    server: "fs",
    direction: "send",
    at: T0 + 1,
    message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read" } },
  },
  {
    type: "wire",
    server: "fs",
    direction: "receive",
    at: T0 + 2,
    preview: '{"jsonrpc":"2.0"',
    chars: 300_000,
  },
  { type: "turn_start", turn: 1, input: "read it", at: new Date(T0 + 10).toISOString() },
  {
    type: "kb_hits",
    hits: [
      { path: "k.md", startLine: 1, endLine: 3, heading: "Deploy", score: 0.5, relevance: 1, text: "t" },
    ],
  },
  {
    type: "model_request",
    step: 1,
    messageCount: 2,
    tools: ["fs__read"],
    selection: {
      total: 40,
      why: "search",
      offered: [{ name: "fs__read", reason: "match", score: 0.9 }],
      heldBack: 39,
    },
  },
  { type: "model_retry", step: 1, attempt: 1, delayMs: 5, reason: "HTTP 429" },
  { type: "text_delta", step: 1, delta: "Reading." },
  {
    type: "model_step_end",
    step: 1,
    finishReason: "tool_calls",
    usage,
    latencyMs: 25,
    firstTokenMs: 9,
    toolCalls: 1,
  },
  {
    type: "tool_call_proposed",
    call: {
      id: "c1",
      step: 1,
      modelName: "fs__read",
      server: "fs",
      tool: "read",
      arguments: { path: "a" },
      rawArguments: '{"path":"a"}',
      tier: "dangerous",
      tierReason: "name: read",
      toolNotes: ["a note"],
    },
  },
  { type: "approval_requested", callId: "c1", reason: "dangerous calls need a person's yes" },
  {
    type: "approval_decided",
    callId: "c1",
    approved: true,
    by: "user",
    reason: "you said yes",
    argumentSecrets: [],
  },
  { type: "tool_started", callId: "c1" },
  { type: "tool_progress", callId: "c1", progress: 1, total: 2 },
  { type: "tool_task", callId: "c1", taskId: "job-1", status: "working", statusMessage: "step 1" },
  { type: "raw_result", callId: "c1", result: { content: [{ type: "text", text: "RAW" }] } },
  {
    type: "tool_result",
    callId: "c1",
    ok: true,
    forModel: "<tool_output>shaped</tool_output>",
    display: "shaped",
    truncated: false,
    redactions: ["openai-api-key"],
    durationMs: 8,
  },
  {
    type: "input_round",
    server: "fs",
    method: "tools/call",
    name: "read",
    round: 1,
    asks: [{ key: "reply", method: "sampling/createMessage" }],
    requestState: false,
  },
  {
    type: "sampling",
    server: "fs",
    outcome: "refused",
    by: "default",
    reason: "nobody is there to answer it",
    messages: 1,
    maxTokens: 100,
    modelHints: ["small"],
    edited: false,
  },
  {
    type: "elicitation",
    server: "fs",
    mode: "form",
    action: "accept",
    by: "user",
    reason: "the user chose accept",
    fields: ["go"],
  },
  {
    type: "context_compacted",
    trigger: "auto",
    window: 32768,
    beforeTokens: 40_000,
    afterTokens: 900,
    dropped: [
      { kind: "tool_arguments", toolCallId: "c1", tool: "fs__read", chars: 100_000, keptChars: 1500 },
    ],
  },
  { type: "warning", message: "Stopped after 2 model steps." },
  { type: "error", code: "llm", message: "The model went silent.", exitCode: 1 },
  { type: "turn_end", turn: 1, reason: "completed", answer: "Done.", steps: 1, usage, deniedCalls: 0 },
  { type: "subscription", kind: "opened", server: "fs", era: "modern", subject: "list changes", honored: {} },
  { type: "subscription", kind: "updated", server: "fs", uri: "file:///a" },
  { type: "subscription", kind: "updates_left_out", server: "fs", count: 3, kept: 200 },
  {
    type: "subscription",
    kind: "closed",
    server: "fs",
    subject: "list changes",
    why: "it ended",
    relisten: true,
  },
  {
    type: "subscription",
    kind: "failed",
    server: "fs",
    subject: "list changes",
    reason: "404",
    retrying: false,
  },
  {
    type: "server_exit",
    server: "fs",
    code: 5,
    signal: null,
    errorLine: "fs: exiting",
    stderrTail: ["fs: exiting"],
  },
  { type: "stdout_noise", server: "fs", line: "fs v1 starting..." },
  { type: "cache_hit", server: "fs", method: "resources/read", key: "file:///a", ttlMs: 1000, leftMs: 500 },
  { type: "wire_truncated", limit: 2 },
  { type: "session_end" },
].map((record, index) => ({ ...record, ts: T0 + index }));

/** Everything a person can be shown of a trace: the tree, the frames, the OTLP export, the JSON. */
function shown(text: string): string {
  const trace = parseTrace(text);
  return [
    renderTraceTree(trace),
    renderWire(trace),
    renderWire(trace, { full: true }),
    JSON.stringify(toOtlpJson(trace)),
    JSON.stringify(trace),
  ].join("\n");
}

const jsonl = (records: readonly object[]): string =>
  records.map((record) => JSON.stringify(record)).join("\n");

/** Every field of `value` down to three levels, a list's first entry standing for the rest. */
function fieldPaths(value: unknown, depth = 0): string[][] {
  if (depth === 3 || typeof value !== "object" || value === null) return [];
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.length > 0
      ? [["0", value[0] as unknown]]
      : []
    : Object.entries(value);
  return entries.flatMap(([key, item]) => [
    [key],
    ...fieldPaths(item, depth + 1).map((rest) => [key, ...rest]),
  ]);
}

/** A copy of `record` with the field at `path` removed, or set to `replacement`. */
function withField(record: object, path: string[], replacement: unknown): object {
  const copy = structuredClone(record) as Record<string, unknown>;
  let parent: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = path.at(-1) ?? "";
  if (replacement === undefined) Reflect.deleteProperty(parent, last);
  else parent[last] = replacement;
  return copy;
}

const REPLACEMENTS = [undefined, null, "zz", 7, true, [], {}];
/** What a field read as something it is not shows up as. */
const MISREAD = /\bundefined\b|\bNaN\b|\bInfinity\b|\[object Object\]/;

describe("trace records from elsewhere", () => {
  it("reads the sample as it was written, every record kept", () => {
    expect(parseTrace(jsonl(RECORDS)).problems).toEqual([]);
    expect(shown(jsonl(RECORDS))).not.toMatch(MISREAD);
  });

  it("shows every trace with one field missing or of another kind without a crash or a field misread", () => {
    const failures: string[] = [];
    RECORDS.forEach((record, index) => {
      for (const path of fieldPaths(record).filter((fieldPath) => fieldPath[0] !== "type"))
        for (const replacement of REPLACEMENTS) {
          const records = RECORDS.map((other, at) =>
            at === index ? withField(other, path, replacement) : other,
          );
          const what = `${(record as { type: string }).type}.${path.join(".")} = ${JSON.stringify(replacement)}`;
          try {
            const text = shown(jsonl(records));
            if (MISREAD.test(text)) failures.push(`${what}: ${MISREAD.exec(text)?.[0] ?? ""}`);
          } catch (error) {
            failures.push(`${what}: ${(error as Error).message}`);
          }
        }
    });
    expect(failures).toEqual([]);
  });

  it("reads a number JSON writes as 1e999 as no number: no Infinity shown, the OTLP export made", () => {
    const lines = jsonl(RECORDS)
      .replace('"latencyMs":25', '"latencyMs":1e999')
      .replace('"durationMs":8', '"durationMs":-1e999')
      .replace(`"at":${T0 + 1}`, '"at":1e999')
      .replace(`"ts":${T0 + 4}`, '"ts":1e999');
    expect(lines.match(/1e999/g)).toHaveLength(4);
    expect(shown(lines)).not.toMatch(MISREAD);
  });

  it("shows a compaction, and leaves out one whose trigger or drops it cannot read", () => {
    expect(renderTraceTree(parseTrace(jsonl(RECORDS)))).toContain(
      "Compacted the conversation near the context window's limit: about 40,000 → 900 tokens",
    );
    const compaction =
      RECORDS.find((record) => (record as { type: string }).type === "context_compacted") ?? {};
    for (const [path, value] of [
      [["trigger"], "__proto__"],
      [["dropped"], [null]],
      [["dropped"], [{ kind: "turns" }]],
    ] as const) {
      const shaped = shapedRecord(withField(compaction, [...path], value) as { type: "context_compacted" });
      expect("problem" in shaped, `${path.join(".")} = ${JSON.stringify(value)}`).toBe(true);
    }
  });

  it("leaves out a record without what its type must hold, and says which line and field", () => {
    const records = RECORDS.map((record) =>
      (record as { type: string }).type === "model_request"
        ? withField(record, ["tools"], undefined)
        : record,
    );
    const trace = parseTrace(jsonl(records));
    expect(trace.problems).toEqual(['line 7 (model_request) was left out: its field "tools" is missing']);
    expect(renderTraceTree(trace)).toContain(
      '! line 7 (model_request) was left out: its field "tools" is missing\n',
    );
  });

  it("names a nested field and the kind it should be", () => {
    const proposed =
      RECORDS.find((record) => (record as { type: string }).type === "tool_call_proposed") ?? {};
    expect(
      shapedRecord(withField(proposed, ["call", "step"], "one") as { type: "tool_call_proposed" }),
    ).toEqual({
      problem: 'its field "call.step" is not a number',
    });
  });

  it("drops an optional field of the wrong kind and fills a missing list, keeping the record", () => {
    const result = RECORDS.find((record) => (record as { type: string }).type === "tool_result") ?? {};
    const shaped = shapedRecord(
      withField(withField(result, ["durationMs"], "8 ms"), ["redactions"], undefined) as {
        type: "tool_result";
      },
    );
    expect("record" in shaped && shaped.record).toMatchObject({ callId: "c1", redactions: [] });
    expect("record" in shaped && "durationMs" in shaped.record).toBe(false);
  });

  it("keeps a __proto__ key of a record a key, not the copy's prototype", () => {
    const line = '{"type":"warning","message":"m","__proto__":{"polluted":true},"ts":1}';
    const shaped = shapedRecord(JSON.parse(line) as { type: "warning" });
    expect("record" in shaped && Object.getPrototypeOf(shaped.record)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("shows only the first ten lines it could not read, and how many more there were", () => {
    const text = [jsonl(RECORDS.slice(0, 1)), ...Array.from({ length: 25 }, () => "not json"), ""].join("\n");
    const tree = renderTraceTree(parseTrace(text));
    expect(tree.match(/^! line \d+ is not JSON$/gm)).toHaveLength(10);
    expect(tree).toContain("! and 15 more (mcpterm trace --json lists them all)\n");
  });
});
