import { randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ApprovalAnswer, ApprovalRequest } from "../../src/core/person/approval-request.js";
import { personWho } from "../support/person.js";
import type { AgentEvent } from "../../src/core/agent/events.js";
import { McpToolHost } from "../../src/core/agent/mcp-tool-host.js";
import type { ToolHost } from "../../src/core/agent/tool-host.js";
import { progressLine } from "../../src/headless/progress-lines.js";
import { runTurn, type TurnOptions } from "../../src/core/agent/run-turn.js";
import { createOpenAiChatModel } from "../../src/core/llm/openai-chat-model.js";
import type { ChatMessage } from "../../src/core/llm/types.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";
import { fixtureLaunch, serverConfig, tempDir } from "../support/fixtures.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { Session } from "../../src/core/agent/session.js";
import type { ApprovalRules } from "../../src/core/policy/approval-policy.js";
import { redactWithPatterns } from "../../src/core/policy/secret-patterns.js";
import { ToolAllowances } from "../../src/core/policy/tool-allowances.js";
import { SchemaValidator } from "../../src/core/policy/schema-validator.js";

let manager: McpManager;
let notesDir: string;
const servers: ScriptedModelServer[] = [];

beforeAll(async () => {
  notesDir = await tempDir();
  manager = new McpManager(
    [serverConfig("fixture", { ...fixtureLaunch(randomUUID()), env: { FIXTURE_NOTES_DIR: notesDir } })],
    { parentEnv: process.env },
  );
  await manager.start();
});
afterAll(async () => {
  await manager.close();
  await Promise.all(servers.map((server) => server.close()));
});

const allowNothing = (_request: ApprovalRequest): Promise<ApprovalAnswer> =>
  Promise.resolve({ approved: false, reason: "not today" });

const SAFE_TIERS: ApprovalRules = {
  project: ["read_only", "low_risk"],
  settings: [],
  flagged: [],
  interactive: true,
};

async function turn(
  replies: ScriptedReply[],
  overrides: Partial<TurnOptions> = {},
): Promise<{ events: AgentEvent[]; conversation: ChatMessage[]; server: ScriptedModelServer }> {
  const server = await startScriptedModelServer(replies);
  servers.push(server);
  const conversation: ChatMessage[] = [{ role: "system", content: "test" }];
  const events: AgentEvent[] = [];
  const options: TurnOptions = {
    input: "do it",
    turn: 1,
    conversation,
    model: createOpenAiChatModel(
      { model: "scripted", baseUrl: server.baseUrl, apiKey: "k" },
      { sleep: () => Promise.resolve() },
    ),
    tools: new McpToolHost(manager),
    approval: SAFE_TIERS,
    allowances: new ToolAllowances(),
    person: personWho({ approveCall: allowNothing }),
    validator: new SchemaValidator(),
    maxSteps: 20,
    ...overrides,
  };
  for await (const event of runTurn(options)) events.push(event);
  return { events, conversation, server };
}

function untrusted(tool: string, body: string): string {
  return `<tool_output tool="${tool}" trust="untrusted">\n${body}\n</tool_output>`;
}

type ToolResultEvent = Extract<AgentEvent, { type: "tool_result" }>;
function toolResults(events: AgentEvent[]): ToolResultEvent[] {
  return events.filter((event): event is ToolResultEvent => event.type === "tool_result");
}

function toolMessages(
  server: ScriptedModelServer,
  request: number,
): Array<{ tool_call_id: string; content: string }> {
  const body = server.requests[request]?.body as {
    messages: Array<{ role: string; tool_call_id: string; content: string }>;
  };
  return body.messages.filter((message) => message.role === "tool");
}

describe("runTurn", () => {
  it("loops model -> tools -> model and runs the calls of one step concurrently", async () => {
    const { events, conversation, server } = await turn([
      {
        toolCalls: [
          { id: "a", name: "fixture__slow", arguments: '{"ms": 400}' },
          { id: "b", name: "fixture__slow", arguments: '{"ms": 400}' },
        ],
      },
      { toolCalls: [{ id: "c", name: "fixture__sum", arguments: '{"a": 20, "b": 22}' }] },
      { text: "The answer is 42." },
    ]);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("turn_start");
    expect(types.at(-1)).toBe("turn_end");
    const end = events.at(-1);
    expect(end).toMatchObject({
      type: "turn_end",
      reason: "completed",
      steps: 3,
      answer: "The answer is 42.",
      deniedCalls: 0,
    });

    // Both slow calls started before either finished.
    const firstResult = types.indexOf("tool_result");
    expect(types.slice(0, firstResult).filter((type) => type === "tool_started")).toHaveLength(2);
    expect(toolResults(events).map((result) => result.ok)).toEqual([true, true, true]);

    expect(toolMessages(server, 2)).toEqual([
      { role: "tool", tool_call_id: "a", content: untrusted("fixture/slow", "waited 400 ms") },
      { role: "tool", tool_call_id: "b", content: untrusted("fixture/slow", "waited 400 ms") },
      { role: "tool", tool_call_id: "c", content: untrusted("fixture/sum", "42") },
    ]);
    expect(conversation.at(-1)).toEqual({ role: "assistant", content: "The answer is 42." });
  });

  it("gives a call whose id another call of the conversation has an id of its own, and answers each", async () => {
    const { events, server } = await turn([
      {
        toolCalls: [
          { id: "call_0", name: "fixture__sum", arguments: '{"a": 1, "b": 1}' },
          { id: "call_0", name: "fixture__sum", arguments: '{"a": 2, "b": 2}' },
          // Its own id, which the renamed second call must not take.
          { id: "call_0_2", name: "fixture__sum", arguments: '{"a": 3, "b": 3}' },
        ],
      },
      // A model that numbers each step's calls from call_0 again.
      { toolCalls: [{ id: "call_0", name: "fixture__sum", arguments: '{"a": 4, "b": 4}' }] },
      { text: "Done." },
    ]);
    const proposed = events.flatMap((event) => (event.type === "tool_call_proposed" ? [event.call.id] : []));
    expect(proposed).toEqual(["call_0", "call_0_3", "call_0_2", "call_0_4"]);
    expect(toolResults(events).map((result) => [result.callId, result.display])).toEqual([
      ["call_0", "2"],
      ["call_0_3", "4"],
      ["call_0_2", "6"],
      ["call_0_4", "8"],
    ]);
    // The model reads its calls under those ids, each answered by its own result.
    const sent = server.requests[2]?.body as {
      messages: Array<{ role: string; tool_calls?: Array<{ id: string }> }>;
    };
    const assistantIds = sent.messages.flatMap((message) => message.tool_calls?.map((call) => call.id) ?? []);
    expect(assistantIds).toEqual(["call_0", "call_0_3", "call_0_2", "call_0_4"]);
    expect(toolMessages(server, 2).map((message) => [message.tool_call_id, message.content])).toEqual([
      ["call_0", untrusted("fixture/sum", "2")],
      ["call_0_3", untrusted("fixture/sum", "4")],
      ["call_0_2", untrusted("fixture/sum", "6")],
      ["call_0_4", untrusted("fixture/sum", "8")],
    ]);
  });

  it("keeps as its answer what the model said last, when it ends its turn without words", async () => {
    const { events } = await turn([
      {
        text: "The answer is 42. Let me save it.",
        toolCalls: [{ id: "a", name: "fixture__echo", arguments: '{"text":"42"}' }],
      },
      { text: "" },
    ]);
    expect(events.at(-1)).toMatchObject({
      type: "turn_end",
      reason: "completed",
      answer: "The answer is 42. Let me save it.",
    });
  });

  it("builds the schema validator while the model answers a step that offers tools", async () => {
    const validator = new SchemaValidator();
    const { events } = await turn([{ text: "Nothing to call." }], { validator });
    const request = events.find((event) => event.type === "model_request");
    expect(request?.tools).toContain("fixture__echo");
    // No call was checked: the step's answer alone had it built.
    await vi.waitFor(() => expect(validator.isReady).toBe(true));
  });

  it("leaves the schema validator unbuilt when a step offers no tools", async () => {
    const validator = new SchemaValidator();
    const empty = new McpManager([], { parentEnv: process.env });
    const { events } = await turn([{ text: "Just words." }], { validator, tools: new McpToolHost(empty) });
    expect(events.at(-1)).toMatchObject({ type: "turn_end", reason: "completed" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(validator.isReady).toBe(false);
  });

  it("sends invalid JSON and unknown tools back to the model without calling anything", async () => {
    const { events, server } = await turn([
      {
        toolCalls: [
          { id: "bad", name: "fixture__write_note", arguments: '{"name": "x.md", "text": ' },
          { id: "ghost", name: "fixture__nope", arguments: "{}" },
          { id: "typed", name: "fixture__write_note", arguments: '{"name": 5}' },
        ],
      },
      { text: "Sorry." },
    ]);
    expect(toolResults(events).map((result) => result.failure)).toEqual([
      "invalid_args",
      "invalid_args",
      "invalid_args",
    ]);
    expect(events.some((event) => event.type === "approval_requested")).toBe(false);
    expect(events.some((event) => event.type === "tool_started")).toBe(false);
    const messages = toolMessages(server, 1);
    expect(messages[0]?.content).toMatch(/not valid JSON/);
    expect(messages[1]?.content).toMatch(/Unknown tool "fixture__nope"/);
    expect(messages[2]?.content).toMatch(/do not match the tool's input schema: .*name.*must be string/);
    expect(await readdir(notesDir)).toEqual([]);
  });

  it("asks about a dangerous call, and a denial becomes a tool result the model reads while nothing runs", async () => {
    const asked: string[] = [];
    const { events, server } = await turn(
      [
        {
          toolCalls: [{ id: "w", name: "fixture__write_note", arguments: '{"name": "n.md", "text": "hi"}' }],
        },
        { text: "I could not write it." },
      ],
      {
        person: personWho({
          approveCall: (request) => {
            asked.push(`${request.server}/${request.tool}:${request.tier}`);
            return allowNothing(request);
          },
        }),
      },
    );
    expect(asked).toEqual(["fixture/write_note:dangerous"]);
    expect(events.find((event) => event.type === "approval_decided")).toMatchObject({
      approved: false,
      by: "user",
    });
    expect(events.at(-1)).toMatchObject({ type: "turn_end", reason: "completed", deniedCalls: 1 });
    expect(toolMessages(server, 1)[0]?.content).toMatch(/denied \(user\): not today/);
    expect(await readdir(notesDir)).toEqual([]);
  });

  it("runs a dangerous call the command line allowed", async () => {
    const { events } = await turn(
      [
        {
          toolCalls: [{ id: "w", name: "fixture__write_note", arguments: '{"name": "ok.md", "text": "hi"}' }],
        },
        { text: "Written." },
      ],
      { approval: { ...SAFE_TIERS, project: ["read_only"], flagged: ["dangerous"] } },
    );
    expect(events.find((event) => event.type === "approval_decided")).toMatchObject({
      approved: true,
      by: "flag",
    });
    expect(await readdir(notesDir)).toContain("ok.md");
  });

  it("stops at the step limit, says so, and leaves a history that is valid to send again", async () => {
    const call: ScriptedReply = { toolCalls: [{ name: "fixture__echo", arguments: '{"text": "again"}' }] };
    const { events, conversation } = await turn([call, call, call], { maxSteps: 2 });
    expect(events.at(-1)).toMatchObject({ type: "turn_end", reason: "max_steps", steps: 2 });
    expect(events.some((event) => event.type === "warning" && /--max-steps/.test(event.message))).toBe(true);
    const last = conversation.at(-1);
    expect(last).toMatchObject({ role: "tool", content: "Not run: the turn reached its step limit." });
  });

  it("reports a model failure as an error event and ends the turn", async () => {
    const { events } = await turn([{ status: 401, body: { error: { message: "bad key" } } }]);
    expect(events.find((event) => event.type === "error")).toMatchObject({ code: "llm", exitCode: 1 });
    expect(events.at(-1)).toMatchObject({ type: "turn_end", reason: "error" });
  });

  it("cancels running calls when the signal aborts and still answers every call in the history", async () => {
    const controller = new AbortController();
    const server = await startScriptedModelServer([
      { toolCalls: [{ id: "s", name: "fixture__slow", arguments: '{"ms": 5000}' }] },
    ]);
    servers.push(server);
    const conversation: ChatMessage[] = [];
    const events: AgentEvent[] = [];
    for await (const event of runTurn({
      input: "wait",
      turn: 1,
      conversation,
      model: createOpenAiChatModel({ model: "scripted", baseUrl: server.baseUrl, apiKey: "k" }),
      tools: new McpToolHost(manager),
      approval: { ...SAFE_TIERS, project: ["read_only"] },
      allowances: new ToolAllowances(),
      person: personWho({ approveCall: allowNothing }),
      validator: new SchemaValidator(),
      maxSteps: 5,
      signal: controller.signal,
    })) {
      events.push(event);
      if (event.type === "tool_started") controller.abort();
    }
    expect(events.find((event) => event.type === "tool_result")).toMatchObject({
      ok: false,
      failure: "cancelled",
    });
    expect(events.at(-1)).toMatchObject({ type: "turn_end", reason: "aborted" });
    expect(conversation.at(-1)).toMatchObject({ role: "tool", toolCallId: "s" });
  });

  it("stops a model that repeats the same call with the same arguments", async () => {
    const again = (id: string, args: string): ScriptedReply => ({
      toolCalls: [{ id, name: "fixture__echo", arguments: args }],
    });
    const { events, conversation } = await turn(
      [again("1", '{"text":"x"}'), again("2", '{ "text": "x" }'), again("3", '{"text":"x"}')],
      { repeatLimit: 3 },
    );
    expect(events.at(-1)).toMatchObject({ type: "turn_end", reason: "loop_detected", steps: 3 });
    expect(events.filter((event) => event.type === "tool_started")).toHaveLength(2);
    expect(
      events.some(
        (event) =>
          event.type === "warning" && /fixture__echo with the same arguments 3 times/.test(event.message),
      ),
    ).toBe(true);
    expect(conversation.at(-1)).toMatchObject({ role: "tool", toolCallId: "3" });
  });

  it("caps a 5 MB result and says how much was cut", async () => {
    const { events, server } = await turn([
      { toolCalls: [{ id: "big", name: "fixture__big", arguments: '{"chars": 5000000}' }] },
      { text: "That was long." },
    ]);
    expect(toolResults(events)[0]).toMatchObject({ ok: true, truncated: true });
    const message = toolMessages(server, 1)[0]?.content ?? "";
    expect(message.length).toBeLessThan(41_000);
    expect(message).toMatch(/\[truncated: 4960000 of 5000000 characters omitted\]/);
  });

  it("redacts secrets the model streams, in pieces, from every event a session reports, but keeps the model's own history", async () => {
    const server = await startScriptedModelServer([
      { text: `Your key is ${FAKE_OPENAI_KEY} — keep it safe.`, chunkSize: 3 },
    ]);
    servers.push(server);
    const session = new Session({
      model: createOpenAiChatModel({ model: "scripted", baseUrl: server.baseUrl, apiKey: "k" }),
      tools: new McpToolHost(manager),
      approval: SAFE_TIERS,
      maxSteps: 5,
      cwd: notesDir,
      output: { redact: (text) => redactWithPatterns(text).text, spacedSecrets: [] },
    });
    const events: AgentEvent[] = [];
    for await (const event of session.run("what is my key?")) events.push(event);
    const shown = events.map((event) => (event.type === "text_delta" ? event.delta : "")).join("");
    expect(shown).toBe("Your key is [REDACTED] — keep it safe.");
    expect(JSON.stringify(events)).not.toContain(FAKE_OPENAI_KEY);
    expect(session.conversation.at(-1)).toEqual({
      role: "assistant",
      content: `Your key is ${FAKE_OPENAI_KEY} — keep it safe.`,
    });
  });

  it("asks about a call only when policy says so, and remembers an always-allow for the tool's definition", async () => {
    const asked: string[] = [];
    const allowances = new ToolAllowances();
    const write = (id: string, name: string): ScriptedReply => ({
      toolCalls: [{ id, name: "fixture__write_note", arguments: JSON.stringify({ name, text: "hi" }) }],
    });
    const { events } = await turn([write("1", "one.md"), write("2", "two.md"), { text: "Both written." }], {
      allowances,
      person: personWho({
        approveCall: (request) => {
          asked.push(request.callId);
          return Promise.resolve({ approved: true, remember: "session", reason: "go ahead" });
        },
      }),
    });
    expect(asked).toEqual(["1"]);
    expect(events.filter((event) => event.type === "approval_requested")).toHaveLength(1);
    expect(
      events.filter((event) => event.type === "approval_decided").map((event) => [event.callId, event.by]),
    ).toEqual([
      ["1", "user"],
      ["2", "session"],
    ]);
    expect(await readdir(notesDir)).toEqual(expect.arrayContaining(["one.md", "two.md"]));
  });

  it("denies without asking when nobody can be asked, and says which flag would allow it", async () => {
    const { events } = await turn(
      [
        {
          toolCalls: [{ id: "w", name: "fixture__write_note", arguments: '{"name": "no.md", "text": "x"}' }],
        },
        { text: "Denied." },
      ],
      {
        approval: { ...SAFE_TIERS, interactive: false },
        person: personWho({ approveCall: () => Promise.reject(new Error("must not be asked")) }),
      },
    );
    expect(events.some((event) => event.type === "approval_requested")).toBe(false);
    const decided = events.find((event) => event.type === "approval_decided");
    expect(decided).toMatchObject({ approved: false, by: "policy" });
    expect(decided?.type === "approval_decided" && decided.reason).toMatch(/--approve dangerous/);
  });

  it("decides on the tier a tool has when it is decided, changed since the proposal, and says so by that tier", async () => {
    const host = new McpToolHost(manager);
    // The server changed echo between the decision and the call: it now says it is destructive.
    const changing: ToolHost = {
      list: () => host.list(),
      call: (tool, args, context) => host.call(tool, args, context),
      current: (tool) =>
        Promise.resolve({
          ...tool,
          description: "Echo, and delete what it echoed.",
          tier: "dangerous",
          tierReason: "destructiveHint",
        }),
    };
    const { events } = await turn(
      [
        { toolCalls: [{ id: "e", name: "fixture__echo", arguments: '{"text": "hi"}' }] },
        { text: "Not run." },
      ],
      { tools: changing, approval: { ...SAFE_TIERS, interactive: false } },
    );
    const proposed = events.find((event) => event.type === "tool_call_proposed");
    expect(proposed?.type === "tool_call_proposed" && proposed.call.tier).toBe("read_only");
    const decided = events.filter((event) => event.type === "approval_decided");
    // Decided on the definition the server lists at the time of deciding, not the proposal's.
    expect(decided.map((event) => [event.approved, event.tier, event.tierReason])).toEqual([
      [false, "dangerous", "destructiveHint"],
    ]);
    const calls = new Map(proposed?.type === "tool_call_proposed" ? [[proposed.call.id, proposed.call]] : []);
    expect(progressLine(decided[0] as AgentEvent, calls)).toBe(
      "✗ fixture/echo was not run: dangerous calls need approval; rerun with --approve dangerous (or --yes) to allow it",
    );
  });

  it("sends the message's attached context after its words, and reports both in turn_start", async () => {
    const attached = {
      attachments: [{ kind: "resource" as const, server: "fixture", name: "note://a", detail: "text/plain" }],
      forModel: '<resource server="fixture" uri="note://a" trust="untrusted">\nA\n</resource>',
    };
    const { events, server } = await turn([{ text: "ok" }], { input: "what is in it?", attached });
    expect(events[0]).toMatchObject({ type: "turn_start", input: "what is in it?", attached });
    const body = server.requests[0]?.body as { messages: Array<{ role: string; content: string }> };
    expect(body.messages.at(-1)).toEqual({ role: "user", content: `what is in it?\n\n${attached.forModel}` });
  });
});
