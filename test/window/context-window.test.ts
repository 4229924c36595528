import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_INSTRUCTIONS } from "../../src/core/agent/context-keeper.js";
import type { AgentEvent } from "../../src/core/agent/events.js";
import { McpToolHost } from "../../src/core/agent/mcp-tool-host.js";
import { Session } from "../../src/core/agent/session.js";
import { lazyChatModel } from "../../src/core/llm/lazy-chat-model.js";
import type { ModelSettings } from "../../src/core/llm/types.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import type { ApprovalRules } from "../../src/core/policy/approval-policy.js";
import { REPO_ROOT, fixtureLaunch, serverConfig, tempDir } from "../support/fixtures.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
  type ScriptedServerOptions,
} from "../support/scripted-model-server.js";

const READ_ONLY: ApprovalRules = { project: ["read_only"], settings: [], flagged: [], interactive: false };
const FILESYSTEM = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

let fixture: McpManager;
let filesystem: McpManager;
let listed: string;
const servers: ScriptedModelServer[] = [];

beforeAll(async () => {
  // A real folder of 2,500 files for the real filesystem server to list.
  listed = await tempDir();
  const files = path.join(listed, "files");
  await mkdir(files);
  await Promise.all(
    Array.from({ length: 2_500 }, (_, i) =>
      writeFile(path.join(files, `report-${String(i).padStart(4, "0")}-quarterly-summary.txt`), ""),
    ),
  );
  // One server each: the fixed prompt of both together would fill a 4,096-token window alone.
  fixture = new McpManager([serverConfig("fixture", fixtureLaunch(randomUUID()))], {
    parentEnv: process.env,
  });
  filesystem = new McpManager(
    [serverConfig("filesystem", { command: process.execPath, args: [FILESYSTEM, listed] })],
    { parentEnv: process.env },
  );
  await Promise.all([fixture.start(), filesystem.start()]);
});
afterAll(async () => {
  await Promise.all([fixture.close(), filesystem.close()]);
  await Promise.all(servers.map((server) => server.close()));
});

async function server(
  script: (request: RecordedRequest) => ScriptedReply,
  options: ScriptedServerOptions,
): Promise<ScriptedModelServer> {
  const started = await startScriptedModelServer(script, options);
  servers.push(started);
  return started;
}

function session(settings: ModelSettings, manager = fixture): Session {
  return new Session({
    model: lazyChatModel(settings, { sleep: () => Promise.resolve() }),
    tools: new McpToolHost(manager),
    approval: READ_ONLY,
    maxSteps: 6,
    cwd: listed,
  });
}

async function run(target: Session, input: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of target.run(input)) events.push(event);
  return events;
}

const messagesOf = (request: RecordedRequest): Array<{ role: string; content: string | null }> =>
  (request.body as { messages?: Array<{ role: string; content: string | null }> }).messages ?? [];

const isSummaryRequest = (request: RecordedRequest): boolean =>
  (messagesOf(request)[0]?.content ?? "").startsWith(SUMMARY_INSTRUCTIONS.slice(0, 40));

const lastUser = (request: RecordedRequest): string =>
  messagesOf(request)
    .filter((message) => message.role === "user")
    .at(-1)?.content ?? "";

const lastRole = (request: RecordedRequest): string => messagesOf(request).at(-1)?.role ?? "";

/** llama-server as run with `-c 4096`: meta.n_ctx_train in /v1/models, the real n_ctx in /props. */
const llamaCpp = (window: number): ScriptedServerOptions => ({
  contextWindow: window,
  models: {
    object: "list",
    data: [{ id: "scripted", object: "model", owned_by: "llamacpp", meta: { n_ctx_train: 131_072 } }],
  },
  routes: { "/props": { default_generation_settings: { n_ctx: window } } },
});

describe("the context window", () => {
  it("keeps a 200-turn session inside a 4,096-token window the server reports, and every turn answers", async () => {
    const model = await server((request) => {
      if (isSummaryRequest(request)) {
        return { text: "Decided to keep notes in /work/notes.md; open question: which quarter to report." };
      }
      const asked = lastUser(request);
      const turn = Number(/turn (\d+)/.exec(asked)?.[1] ?? "0");
      // Every tenth turn reads a long result first, then answers.
      if (turn % 10 === 0 && lastRole(request) === "user") {
        return { toolCalls: [{ name: "fixture__big", arguments: JSON.stringify({ chars: 30_000 }) }] };
      }
      return {
        text: `Answer to turn ${turn}: ${"the figures add up and nothing else changed. ".repeat(12)}`,
      };
    }, llamaCpp(4_096));
    const chat = session({ model: "scripted", baseUrl: model.baseUrl, apiKey: undefined });

    const ends: Array<Extract<AgentEvent, { type: "turn_end" }>> = [];
    let compactions = 0;
    for (let turn = 1; turn <= 200; turn++) {
      const events = await run(
        chat,
        `turn ${turn}: ${"please check the quarterly numbers again. ".repeat(8)}`,
      );
      compactions += events.filter((event) => event.type === "context_compacted").length;
      const end = events.find((event) => event.type === "turn_end");
      if (end?.type === "turn_end") ends.push(end);
    }

    expect(ends).toHaveLength(200);
    expect(ends.filter((end) => end.reason !== "completed")).toEqual([]);
    expect(ends.at(-1)?.answer).toContain("Answer to turn 200");
    expect(model.requests.filter((request) => request.refused)).toEqual([]);
    expect(Math.max(...model.requests.map((request) => request.promptTokens))).toBeLessThanOrEqual(4_096);
    expect(model.requests.filter(isSummaryRequest).length).toBeGreaterThan(0);
    expect(compactions).toBeGreaterThan(0);
    // The summary stands in for the older turns, and the history starts with it.
    expect(chat.conversation[1]?.content).toContain("/work/notes.md");
    expect((await chat.stats()).window).toMatchObject({ tokens: 4_096, source: "server" });
  });

  it("caps a 2,500-file listing from the real filesystem server by the 8,192-token window, and the next turn succeeds", async () => {
    const model = await server((request) => {
      if (isSummaryRequest(request)) return { text: "Listed files/: 2,500 quarterly reports." };
      if (lastRole(request) === "tool") return { text: "There are 2,500 reports." };
      if (lastUser(request).includes("list")) {
        return {
          toolCalls: [
            {
              name: "filesystem__list_directory",
              arguments: JSON.stringify({ path: path.join(listed, "files") }),
            },
          ],
        };
      }
      return { text: "Hello!" };
    }, llamaCpp(8_192));
    const chat = session({ model: "scripted", baseUrl: model.baseUrl, apiKey: undefined }, filesystem);

    const first = await run(chat, "list the files folder");
    const result = first.find((event) => event.type === "tool_result");
    expect(result?.type === "tool_result" && result.ok).toBe(true);
    expect(result?.type === "tool_result" && result.truncated).toBe(true);
    // The person still sees the listing as the server sent it (up to the display cap).
    expect(result?.type === "tool_result" && result.display.length).toBeGreaterThan(30_000);
    expect(first.at(-1)).toMatchObject({
      type: "turn_end",
      reason: "completed",
      answer: "There are 2,500 reports.",
    });

    const second = await run(chat, "say hello");
    expect(second.at(-1)).toMatchObject({ type: "turn_end", reason: "completed", answer: "Hello!" });
    expect(model.requests.filter((request) => request.refused)).toEqual([]);
    expect(Math.max(...model.requests.map((request) => request.promptTokens))).toBeLessThanOrEqual(8_192);
  });

  it("compacts once and retries when the server refuses a request as longer than its window", async () => {
    const model = await server(
      (request) => {
        if (isSummaryRequest(request))
          return { text: "Earlier: the person compared three reports; nothing decided." };
        return { text: `Reply ${lastUser(request).slice(0, 12)}` };
      },
      { contextWindow: 2_000 },
    );
    // mcpterm is told the window is far larger than the server's, so only the server's refusal tells it.
    const chat = session({
      model: "scripted",
      baseUrl: model.baseUrl,
      apiKey: undefined,
      contextWindow: 100_000,
    });
    let refusedAt: AgentEvent[] | undefined;
    for (let turn = 1; turn <= 40 && !refusedAt; turn++) {
      const events = await run(
        chat,
        `turn ${turn}: ${"compare the three reports line by line. ".repeat(20)}`,
      );
      expect(events.at(-1)).toMatchObject({
        type: "turn_end",
        reason: "completed",
        answer: `Reply ${`turn ${turn}: compare`.slice(0, 12)}`,
      });
      if (model.requests.some((request) => request.refused)) refusedAt = events;
    }
    const compacted = (refusedAt ?? []).filter((event) => event.type === "context_compacted");
    expect(compacted).toHaveLength(1);
    expect(compacted[0]).toMatchObject({ trigger: "overflow", window: 2_000 });
    expect(model.requests.filter((request) => request.refused)).toHaveLength(1);
    // What the server said is remembered: the next turns fit without another refusal.
    await run(chat, "turn 7: and the last one?");
    expect(model.requests.filter((request) => request.refused)).toHaveLength(1);
  });

  it("says in one sentence what to do when even a compacted request does not fit", async () => {
    const model = await server(() => ({ text: "never" }), { contextWindow: 300 });
    const chat = session({
      model: "scripted",
      baseUrl: model.baseUrl,
      apiKey: undefined,
      contextWindow: 100_000,
    });
    const events = await run(chat, "hello");
    const error = events.find((event) => event.type === "error");
    expect(error?.type === "error" && error.message).toMatch(
      /context window.*(\/compact|narrow the servers or tools)/,
    );
    expect(events.at(-1)).toMatchObject({ type: "turn_end", reason: "error" });
    // One retry at most: the first request and the one after compacting.
    expect(model.requests.filter((request) => request.refused).length).toBeLessThanOrEqual(2);
  });

  it("/compact summarizes the older turns now, keeping the focus the person gives", async () => {
    const model = await server((request) => {
      if (isSummaryRequest(request)) return { text: "Kept: the Q3 figures are final (see /data/q3.csv)." };
      // Long enough that a summary is shorter than the turns it stands for.
      return { text: `Noted ${lastUser(request)}. ${"The figures add up. ".repeat(60)}` };
    }, llamaCpp(16_384));
    const chat = session({ model: "scripted", baseUrl: model.baseUrl, apiKey: undefined });
    for (const input of ["first question", "second question", "third question"]) await run(chat, input);
    const events: AgentEvent[] = [];
    for await (const event of chat.compact("the Q3 figures")) events.push(event);

    const summary = model.requests.find(isSummaryRequest);
    expect(summary && messagesOf(summary)[0]?.content).toContain(
      "Above all, keep what concerns: the Q3 figures",
    );
    expect(events).toEqual([
      expect.objectContaining({ type: "context_compacted", trigger: "manual", focus: "the Q3 figures" }),
    ]);
    expect(chat.conversation[1]?.content).toContain("/data/q3.csv");
    // The last turn stays as it was, so the conversation goes on from it.
    expect(chat.conversation.at(-1)).toEqual({
      role: "assistant",
      content: `Noted third question. ${"The figures add up. ".repeat(60)}`,
    });
    expect((await run(chat, "go on")).at(-1)).toMatchObject({ reason: "completed" });
  });
});
