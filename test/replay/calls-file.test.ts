import { describe, expect, it } from "vitest";
import { callFromLine, callLine } from "../../src/core/trace/calls-file.js";
import type { RecordedCall } from "../../src/core/trace/recorded-calls.js";
import { splitCommandLine } from "../../src/core/config/command-line.js";
import { toolChanges } from "../../src/core/policy/tool-changes.js";
import { escapeInvisible } from "../../src/core/policy/json-escapes.js";
import { TraceCallCollector } from "../../src/core/trace/trace-calls.js";

const tool: RecordedCall = {
  kind: "tool",
  server: "fixture",
  target: "echo",
  arguments: { text: "hi" },
  tier: "read_only",
  durationMs: 3,
  recorded: { kind: "result", value: { content: [{ type: "text", text: "hi" }] } },
  line: 1,
};

describe("calls files", () => {
  it.each<RecordedCall>([
    tool,
    {
      ...tool,
      kind: "resource",
      target: "file:///a.md",
      arguments: {},
      tier: undefined,
      durationMs: undefined,
    },
    { ...tool, kind: "prompt", target: "review", arguments: { note: "a" }, tier: undefined },
    { ...tool, recorded: { kind: "error", failure: "transient", code: undefined, message: "lost" } },
    { ...tool, recorded: { kind: "preview", preview: '{"content":[', chars: 300000 } },
    { ...tool, personApproved: true },
  ])("read back a written line unchanged: %j", (call) => {
    expect(callFromLine(JSON.parse(callLine(call)) as Record<string, unknown>, 1)).toEqual(call);
  });

  it.each([
    [{ kind: "shell" }, 'line 4: "kind" must be "tool", "resource" or "prompt", got "shell".'],
    [{ kind: "tool", tool: "x" }, 'line 4: "server" must be the name of a server, got nothing.'],
    [
      { kind: "resource", server: "s" },
      'line 4: a resource call needs "uri" as a non-empty string, got nothing.',
    ],
    [
      { kind: "tool", server: "s", tool: "t", arguments: [1] },
      'line 4: "arguments" must be a JSON object, got [1].',
    ],
    [
      { kind: "prompt", server: "s", prompt: "p", arguments: { n: 1 } },
      'line 4: prompt argument "n" must be a string (MCP prompts take strings).',
    ],
    [
      { kind: "tool", server: "s", tool: "t", tier: "safe", result: {} },
      'line 4: "tier" must be one of read_only, low_risk, dangerous, external, got "safe".',
    ],
    [
      { kind: "tool", server: "s", tool: "t", result: {}, error: {} },
      'line 4 has "result" and "error"; give one.',
    ],
    [
      { kind: "tool", server: "s", tool: "t", error: { failure: "oops" } },
      'line 4: "error.failure" must be one of invalid_args, transient, permission, business, protocol, cancelled, got "oops".',
    ],
    [
      { kind: "tool", server: "s", tool: "t", argments: { id: 7 }, result: {} },
      'line 4 has an unknown key "argments"; did you mean "arguments"? (the keys are kind, server, tool, arguments, tier, personApproved, durationMs, result, error, resultPreview, resultChars).',
    ],
    [
      // Another kind's target is unknown here too: a resource call has no "tool".
      { kind: "resource", server: "s", uri: "file:///a", tool: "t", result: {} },
      'line 4 has an unknown key "tool" (the keys are kind, server, uri, arguments, tier, personApproved, durationMs, result, error, resultPreview, resultChars).',
    ],
    [
      { kind: "tool", server: "s", tool: "t", error: { mesage: "lost" } },
      'line 4: "error" has an unknown key "mesage"; did you mean "message"? (the keys are failure, code, message).',
    ],
  ])("%j is refused with one sentence", (value, message) => {
    expect(callFromLine(value, 4)).toBe(message);
  });

  it("writes characters that hide text as JSON escapes, which read back the same", () => {
    const json = JSON.stringify({ text: "a\u202eb\u200bc\u0085d" });
    const escaped = escapeInvisible(json);
    expect(escaped).toBe('{"text":"a\\u202eb\\u200bc\\u0085d"}');
    expect(JSON.parse(escaped)).toEqual(JSON.parse(json));
  });
});

describe("splitCommandLine", () => {
  it.each([
    ["node server.js", ["node", "server.js"]],
    [`node 'my server.js' "a \\"b\\"" c\\ d`, ["node", "my server.js", 'a "b"', "c d"]],
    ["  uv  run  ''  x ", ["uv", "run", "", "x"]],
    ["node 'open", `the command line "node 'open" has an unclosed ' quote`],
  ])("%j", (text, expected) => {
    expect(splitCommandLine(text)).toEqual(expected);
  });
});

describe("toolChanges", () => {
  const base = {
    server: "s",
    description: "Echo.",
    inputSchema: { type: "object" },
    tier: "read_only" as const,
  };
  it("names tools added, removed and changed, and how each changed", () => {
    expect(
      toolChanges(
        [
          { ...base, name: "echo" },
          { ...base, name: "old" },
          { ...base, name: "same" },
        ],
        [
          { ...base, name: "echo", description: "Echo twice.", tier: "dangerous" },
          { ...base, name: "same", inputSchema: { type: "object" } },
          { ...base, name: "new" },
        ],
      ),
    ).toEqual([
      { kind: "changed", tool: "echo", parts: ["description changed", "tier read_only → dangerous"] },
      { kind: "added", tool: "new" },
      { kind: "removed", tool: "old" },
    ]);
  });
});

describe("TraceCallCollector", () => {
  const send = (id: number, method: string, params: object) => ({
    type: "wire",
    server: "s",
    direction: "send",
    at: id,
    message: { jsonrpc: "2.0", id, method, params },
  });
  const receive = (id: number, body: object) => ({
    type: "wire",
    server: "s",
    direction: "receive",
    at: id + 1,
    message: { jsonrpc: "2.0", id, ...body },
  });

  it("keeps that a person, not the tier, approved a tool call", () => {
    const collector = new TraceCallCollector();
    const records = [
      {
        type: "tool_call_proposed",
        ts: 1,
        call: { id: "c", server: "s", tool: "t", arguments: {}, tier: "read_only" },
      },
      { type: "approval_decided", ts: 2, callId: "c", approved: true, by: "user" },
      { type: "tool_started", ts: 3, callId: "c" },
      { type: "raw_result", ts: 4, callId: "c", result: { content: [] } },
      { type: "tool_result", ts: 5, callId: "c", ok: true, display: "", durationMs: 2 },
    ];
    records.forEach((record, index) => collector.add(record, index + 1));
    expect(collector.finish().calls).toMatchObject([
      { target: "t", tier: "read_only", personApproved: true, durationMs: 2 },
    ]);
  });

  it("pairs reads with their answers, not with a server's own request of the same id", () => {
    const collector = new TraceCallCollector();
    const records = [
      { type: "session_start", ts: 0 },
      send(1, "resources/read", { uri: "a://x" }),
      receive(1, { method: "sampling/createMessage", params: {} }),
      receive(1, { result: { contents: [] } }),
      send(2, "prompts/get", { name: "p", arguments: { a: "b" } }),
      receive(2, { error: { code: -32602, message: "bad" } }),
      // A call the loop never started (denied) is not a call to replay.
      { type: "tool_call_proposed", ts: 3, call: { id: "c1", server: "s", tool: "t", arguments: {} } },
      { type: "tool_result", ts: 4, callId: "c1", ok: false, failure: "permission", display: "denied" },
    ];
    records.forEach((record, index) => collector.add(record, index + 1));
    const { calls, notes } = collector.finish();
    expect(calls.map((call) => [call.kind, call.target, call.recorded])).toEqual([
      ["resource", "a://x", { kind: "result", value: { contents: [] } }],
      ["prompt", "p", { kind: "error", failure: undefined, code: -32602, message: "bad" }],
    ]);
    expect(notes).toEqual([]);
  });
});
