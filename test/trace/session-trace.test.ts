import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { personWho } from "../support/person.js";
import { McpToolHost } from "../../src/core/agent/mcp-tool-host.js";
import { Session } from "../../src/core/agent/session.js";
import { createOpenAiChatModel } from "../../src/core/llm/openai-chat-model.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { TraceRecorder } from "../../src/core/trace/trace-recorder.js";
import { readTrace } from "../../src/core/trace/trace-reader.js";
import { renderTraceTree } from "../../src/core/trace/trace-tree.js";
import { MCPTERM_VERSION } from "../../src/core/version.js";
import { fixtureLaunch, serverConfig, tempDir } from "../support/fixtures.js";
import { DURATION } from "../support/patterns.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { brokenLaunch, FAKE_SECRET } from "./support.js";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
});

const deny = personWho({
  approveCall: ({ tier }) => Promise.resolve({ approved: false, reason: `${tier} needs a person` }),
});

/** The engine wired to a recorder the way the headless and TUI entry points wire it. */
async function recordSession(model: ScriptedModelServer, dir: string): Promise<string> {
  const marker = randomUUID();
  const redactor = new SecretRedactor([]);
  const servers = [
    serverConfig("fixture", fixtureLaunch(marker)),
    serverConfig("broken", brokenLaunch(marker)),
  ];
  const recorder = TraceRecorder.open({
    dir: path.join(dir, ".mcpterm", "traces"),
    redaction: redactor.forRecords,
    model: "scripted",
    servers: servers.map((server) => server.name),
    cwd: dir,
  });
  const manager = new McpManager(servers, { parentEnv: process.env, onWire: recorder.wire });
  try {
    await manager.start();
    recorder.servers(manager.servers());
    const session = new Session({
      model: createOpenAiChatModel({ model: "scripted", baseUrl: model.baseUrl, apiKey: undefined }),
      tools: new McpToolHost(manager, { redactor, onRawResult: recorder.rawResult }),
      approval: { project: ["read_only", "low_risk"], settings: [], flagged: [], interactive: true },
      person: () => deny,
      maxSteps: 5,
      cwd: dir,
      knowledge: {
        search: () => [
          {
            path: "guide.md",
            startLine: 1,
            endLine: 4,
            heading: "Notes",
            score: 2.5,
            relevance: 1,
            matched: ["notes"],
            text: "x",
          },
        ],
      },
      sink: recorder,
    });
    for await (const _event of session.run("check the notes and the status")) {
      // Draining the turn is the point; the recorder sees every event.
    }
  } finally {
    await manager.close();
    recorder.close();
  }
  return recorder.file;
}

describe("a recorded multi-step turn", () => {
  it("holds every element of the turn, and the tree shows them", async () => {
    const model = await startScriptedModelServer([
      {
        toolCalls: [
          { id: "echo-1", name: "fixture__echo", arguments: '{"text":"hi"}' },
          { id: "write-1", name: "fixture__write_note", arguments: '{"name":"a.md","text":"x"}' },
        ],
      },
      {
        toolCalls: [
          { id: "status-1", name: "broken__get_status", arguments: "{}" },
          { id: "big-1", name: "fixture__big", arguments: '{"chars":50000}' },
          { id: "sum-1", name: "fixture__sum", arguments: '{"a":"one","b":2}' },
        ],
      },
      { text: "All checked." },
    ]);
    cleanups.push(() => model.close());
    const dir = await tempDir();
    const file = await recordSession(model, dir);

    expect(path.dirname(file)).toBe(path.join(dir, ".mcpterm", "traces"));
    expect(path.basename(file)).toMatch(/^\d{8}-\d{6}-\d{3}-[0-9a-f]{6}\.jsonl$/);
    const text = await readFile(file, "utf8");
    expect(text).not.toContain(FAKE_SECRET);

    const trace = await readTrace(file);
    expect(trace.problems).toEqual([]);
    expect(trace.sessions[0]).toMatchObject({ model: "scripted", cwd: dir, version: MCPTERM_VERSION });
    expect(trace.sessions[0]?.servers.map((server) => [server.name, server.status])).toEqual([
      ["fixture", "connected"],
      ["broken", "connected"],
    ]);
    expect(trace.wire.some((frame) => frame.server === "broken" && frame.direction === "receive")).toBe(true);

    const [turn] = trace.turns;
    expect(trace.turns).toHaveLength(1);
    expect(turn?.input).toBe("check the notes and the status");
    expect(turn?.knowledge?.hits.map((hit) => hit.path)).toEqual(["guide.md"]);
    expect(turn?.steps.map((step) => step.finishReason)).toEqual(["tool_calls", "tool_calls", "stop"]);
    for (const step of turn?.steps ?? []) {
      expect(step.durationMs).toBeGreaterThanOrEqual(0);
      expect(step.usage?.promptTokens).toBeGreaterThan(0);
      expect(step.messageCount).toBeGreaterThan(0);
      expect(step.toolsOffered).toContain("fixture__echo");
    }
    const calls = new Map(turn?.steps.flatMap((step) => step.toolCalls).map((call) => [call.id, call]));
    expect(calls.get("echo-1")).toMatchObject({
      server: "fixture",
      tool: "echo",
      arguments: { text: "hi" },
      tier: "read_only",
      tierReason: "readOnlyHint",
      approval: { approved: true, by: "config", asked: false },
      rawResult: { content: [{ type: "text", text: "hi" }] },
      result: { ok: true, display: "hi" },
      guardrails: [],
    });
    expect(calls.get("echo-1")?.durationMs).toBeGreaterThanOrEqual(0);
    expect(calls.get("write-1")).toMatchObject({
      tier: "dangerous",
      approval: { approved: false, by: "user", asked: true },
      result: { ok: false, failure: "permission" },
      guardrails: ["denied by user: dangerous needs a person"],
    });
    expect(calls.get("status-1")?.result?.redactions).toEqual(["openai-api-key"]);
    expect(calls.get("status-1")?.guardrails).toEqual([
      "redacted 1 secret(s) from the result (openai-api-key)",
    ]);
    expect(JSON.stringify(calls.get("status-1")?.rawResult)).toContain("[REDACTED]");
    expect(calls.get("big-1")).toMatchObject({ result: { ok: true, truncated: true } });
    expect(calls.get("big-1")?.guardrails).toEqual(["result truncated to fit the model's context"]);
    expect(calls.get("sum-1")).toMatchObject({ result: { ok: false, failure: "invalid_args" } });
    expect(calls.get("sum-1")?.guardrails[0]).toMatch(
      /^not run: The arguments do not match the tool.s input schema: .*a must be number/,
    );
    expect(turn?.end).toMatchObject({
      reason: "completed",
      answer: "All checked.",
      steps: 3,
      deniedCalls: 1,
    });
    expect(turn?.durationMs).toBeGreaterThan(0);

    const tree = renderTraceTree(trace);
    expect(tree).toMatch(
      new RegExp(
        String.raw`^server broken: connected in ${DURATION} broken 0\.0\.1, protocol 2026-07-28 \(modern\), 4 tools$`,
        "m",
      ),
    );
    expect(tree).toMatch(/^turn 1: "check the notes and the status" \(.+, completed\)$/m);
    expect(tree).toMatch(
      new RegExp(
        String.raw`knowledge: 1 hit\(s\) \(${DURATION}\)\n│ {2}└─ guide\.md:1-4 Notes \(score 2\.50\)`,
      ),
    );
    expect(tree).toMatch(
      new RegExp(
        String.raw`model step 1 \(${DURATION}, first token ${DURATION}, finish tool_calls, \d+ in / \d+ out tokens`,
      ),
    );
    expect(tree).toMatch(new RegExp(String.raw`tool fixture/echo \(${DURATION}, ok\)`));
    expect(tree).toMatch(/tier read_only: readOnlyHint/);
    expect(tree).toMatch(/arguments \{"text":"hi"\}/);
    expect(tree).toMatch(/approved by config: read_only runs without asking/);
    expect(tree).toMatch(new RegExp(String.raw`denied by user after ${DURATION}: dangerous needs a person`));
    // A 2026-07-28 result also carries the server's name in _meta, as it came.
    expect(tree).toMatch(
      /raw result \{"_meta":\{"io\.modelcontextprotocol\/serverInfo":\{"name":"fixture","version":"1\.0\.0"\}\},"content":\[\{"type":"text","text":"hi"\}\]\}/,
    );
    expect(tree).toMatch(/guardrail: redacted 1 secret\(s\) from the result \(openai-api-key\)/);
    expect(tree).toMatch(/guardrail: result truncated to fit the model's context/);
    expect(tree).toMatch(/tool fixture\/sum \(0 ms, failed: invalid_args\)/);
    expect(tree).toMatch(
      /└─ answer \(3 step\(s\), .+, \d+ in \/ \d+ out tokens, 1 denied\)\n {3}└─ All checked\.$/m,
    );
    expect(tree).not.toContain(FAKE_SECRET);
  });
});
