import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ServerConfig } from "../../src/core/config/config-types.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import type { TaskUpdate } from "../../src/core/mcp/task-state.js";
import { ToolCallError } from "../../src/core/mcp/tool-call-error.js";
import type { WireFrame } from "../../src/core/mcp/types.js";
import type { ServerRequestHandlers } from "../../src/core/person/server-request-handlers.js";
import { compiledFixture } from "../support/compiled-fixtures.js";
import {
  EVERYTHING_SERVER,
  serverConfig,
  tempDir,
  toolCatalogLaunch,
  writeJson,
} from "../support/fixtures.js";
import { waitFor } from "../support/poll.js";

/**
 * Tool calls a server answers with a task, against real servers: the 2026-only fixture (the
 * io.modelcontextprotocol/tasks extension), the 2025-only fixture and server-everything
 * (2025-11-25 tasks). The driver follows each task to its result, tells each status, cancels
 * with tasks/cancel, and answers a 2026 task's question through the same handlers as any.
 */
const managers: McpManager[] = [];
const children: Array<() => void> = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
  for (const kill of children.splice(0)) kill();
});

/** The 2026-only fixture over Streamable HTTP, on a free port: its URL. */
function modernOverHttp(env: NodeJS.ProcessEnv = {}): Promise<string> {
  const child = spawn(process.execPath, [compiledFixture("modern-server"), "--http"], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  children.push(() => void child.kill());
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      const url = /listening (\S+)/.exec(chunk)?.[1];
      if (url) resolve(url);
    });
  });
}

const MODERN = (overrides: Partial<ServerConfig> = {}) =>
  serverConfig("modern", {
    command: process.execPath,
    args: [compiledFixture("modern-server")],
    ...overrides,
  });
const LEGACY = (overrides: Partial<ServerConfig> = {}) =>
  serverConfig("legacy", {
    command: process.execPath,
    args: [compiledFixture("legacy-server")],
    ...overrides,
  });

async function started(
  config: ServerConfig,
  requests?: ServerRequestHandlers,
): Promise<{ manager: McpManager; frames: WireFrame[] }> {
  const frames: WireFrame[] = [];
  const manager = new McpManager([config], {
    parentEnv: process.env,
    onWire: (frame) => frames.push(frame),
    ...(requests ? { requests } : {}),
  });
  managers.push(manager);
  await manager.start();
  expect(manager.servers()[0]?.status).toBe("connected");
  return { manager, frames };
}

type Message = {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
};
const sent = (frames: WireFrame[], method: string) =>
  frames
    .filter((frame) => frame.direction === "send")
    .map((frame) => frame.message as Message)
    .filter((message) => message.method === method);

const text = (result: { content: unknown[] }) =>
  result.content.map((block) => (block as { text?: string }).text ?? "").join("");

describe("tool calls run as tasks", () => {
  it("2026: the answer is a task; its statuses are told and its result is the call's", async () => {
    const { manager, frames } = await started(MODERN());
    const updates: TaskUpdate[] = [];
    const result = await manager.callTool(
      "modern",
      "long_job",
      { steps: 3, stepMs: 60 },
      { onTask: (update) => updates.push(update) },
    );
    expect(text(result)).toBe("job done after 3 steps");
    expect(updates[0]).toMatchObject({ server: "modern", tool: "long_job", status: "working" });
    expect(updates.at(-1)).toMatchObject({ status: "completed", statusMessage: "step 3 of 3" });
    const taskId = updates[0]?.taskId;
    // The server's own answer was a task; mcpterm polled it and never showed its mark to the server.
    const call = sent(frames, "tools/call")[0];
    expect(call?.params?._meta).not.toHaveProperty("mcpterm/call");
    const answer = frames.find(
      (frame) => frame.direction === "receive" && (frame.message as Message).id === call?.id,
    );
    expect((answer?.message as Message).result).toMatchObject({ resultType: "task", taskId });
    expect(sent(frames, "tasks/get").length).toBeGreaterThan(0);
    expect(manager.tasks()).toEqual([
      expect.objectContaining({ server: "modern", tool: "long_job", taskId, status: "completed" }),
    ]);
  });

  it("2026 over Streamable HTTP: the task is followed and cancelled alike (the server checks each tasks/* request's headers)", async () => {
    const url = await modernOverHttp();
    const { manager, frames } = await started(serverConfig("h", { transport: "http", url }));
    const result = await manager.callTool("h", "long_job", { steps: 2, stepMs: 60 });
    expect(text(result)).toBe("job done after 2 steps");
    const stop = new AbortController();
    const cancelled = await manager
      .callTool(
        "h",
        "long_job",
        { steps: 200, stepMs: 50 },
        { signal: stop.signal, onTask: () => stop.abort() },
      )
      .catch((error: unknown) => error);
    expect(cancelled).toMatchObject({ failure: "cancelled" });
    await waitFor(() => sent(frames, "tasks/cancel").length === 1, "tasks/cancel");
    await waitFor(() => manager.tasks()[1]?.status === "cancelled", "the second task listed as cancelled");
    expect(text(await manager.callTool("h", "task_cancels", {}))).toBe(manager.tasks()[1]?.taskId);
  });

  it("2026 over HTTP: a poll that gets no answer (a 503) is sent again; the task's result is the call's", async () => {
    const url = await modernOverHttp({ FIXTURE_TASK_GET_FAILURES: "2" });
    const { manager, frames } = await started(serverConfig("h", { transport: "http", url }));
    const result = await manager.callTool("h", "long_job", { steps: 2, stepMs: 60 });
    expect(text(result)).toBe("job done after 2 steps");
    // Two polls failed, then the ones that followed the task to its end.
    expect(sent(frames, "tasks/get").length).toBeGreaterThanOrEqual(3);
    expect(sent(frames, "tools/call")).toHaveLength(1);
  });

  it("2026 over HTTP: after three polls in a row get no answer, the task is given up and cancelled", async () => {
    const url = await modernOverHttp({ FIXTURE_TASK_GET_FAILURES: "1000" });
    const { manager, frames } = await started(serverConfig("h", { transport: "http", url }));
    const failed = await manager
      .callTool("h", "long_job", { steps: 200, stepMs: 50 })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ToolCallError);
    expect((failed as Error).message).toMatch(/gave up on task .*3 polls in a row got no answer/);
    expect(sent(frames, "tasks/get")).toHaveLength(3);
    await waitFor(() => sent(frames, "tasks/cancel").length === 1, "tasks/cancel");
    expect(sent(frames, "tools/call")).toHaveLength(1);
  });

  /** Answers every question yes, and keeps what it was asked. */
  function yesToAll(asked: string[]): ServerRequestHandlers {
    return {
      createMessage: () => Promise.reject(new Error("no sampling here")),
      elicit: (server, params) => {
        asked.push(`${server}: ${params.message}`);
        return Promise.resolve({ action: "accept", content: { go: true } });
      },
    };
  }

  it("2026 over HTTP: a tasks/update that gets no answer is sent again with the same answer, asked once", async () => {
    const url = await modernOverHttp({ FIXTURE_TASK_UPDATE_FAILURES: "2" });
    const asked: string[] = [];
    const { manager, frames } = await started(serverConfig("h", { transport: "http", url }), yesToAll(asked));
    const result = await manager.callTool("h", "long_job", { steps: 2, stepMs: 60, question: "Carry on?" });
    expect(text(result)).toBe("job done after 2 steps (go on: yes)");
    expect(asked).toEqual(["h: Carry on?"]);
    const updates = sent(frames, "tasks/update");
    expect(updates).toHaveLength(3);
    for (const update of updates)
      expect(update.params?.inputResponses).toEqual({ go_on: { action: "accept", content: { go: true } } });
  });

  it("2026 over HTTP: after three tasks/update in a row get no answer, the task is given up and cancelled", async () => {
    const url = await modernOverHttp({ FIXTURE_TASK_UPDATE_FAILURES: "1000" });
    const asked: string[] = [];
    const { manager, frames } = await started(serverConfig("h", { transport: "http", url }), yesToAll(asked));
    const failed = await manager
      .callTool("h", "long_job", { steps: 200, stepMs: 50, question: "Carry on?" })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ToolCallError);
    expect((failed as Error).message).toMatch(
      /gave up on task .*3 tries in a row got no answer, the last its tasks\/update with the answers \(HTTP 503: /,
    );
    expect(asked).toEqual(["h: Carry on?"]);
    expect(sent(frames, "tasks/update")).toHaveLength(3);
    await waitFor(() => sent(frames, "tasks/cancel").length === 1, "tasks/cancel");
  });

  it.each([401, 403, 404])(
    "2026 over HTTP: a poll refused with HTTP %i ends the call at once, saying so",
    async (status) => {
      const url = await modernOverHttp({
        FIXTURE_TASK_GET_FAILURES: "1000",
        FIXTURE_FAIL_STATUS: String(status),
      });
      const { manager, frames } = await started(serverConfig("h", { transport: "http", url }));
      const failed = await manager
        .callTool("h", "long_job", { steps: 200, stepMs: 50 })
        .catch((error: unknown) => error);
      expect((failed as Error).message).toContain(`tasks/get was refused (HTTP ${status}`);
      expect(sent(frames, "tasks/get")).toHaveLength(1);
    },
  );

  it("2026 over HTTP: a tasks/update refused with HTTP 403 ends the call at once, saying so", async () => {
    const url = await modernOverHttp({ FIXTURE_TASK_UPDATE_FAILURES: "1000", FIXTURE_FAIL_STATUS: "403" });
    const { manager, frames } = await started(serverConfig("h", { transport: "http", url }), yesToAll([]));
    const failed = await manager
      .callTool("h", "long_job", { steps: 200, stepMs: 50, question: "Carry on?" })
      .catch((error: unknown) => error);
    expect((failed as Error).message).toContain("tasks/update was refused (HTTP 403");
    expect(sent(frames, "tasks/update")).toHaveLength(1);
  });

  it("2026 over HTTP: a task whose tasks/cancel could not go out is not shown as cancelled", async () => {
    const url = await modernOverHttp({ FIXTURE_TASK_GET_FAILURES: "1000", FIXTURE_TASK_CANCEL_FAILS: "1" });
    const { manager } = await started(serverConfig("h", { transport: "http", url }));
    await manager.callTool("h", "long_job", { steps: 200, stepMs: 50 }).catch(() => undefined);
    const [task] = manager.tasks();
    expect(task?.status).toBe("working");
    expect(task?.statusMessage).toMatch(/3 polls in a row got no answer .*tasks\/cancel could not be sent/);
  });

  it("2025: a tool that requires a task is called with params.task and its result read with tasks/result", async () => {
    const { manager, frames } = await started(LEGACY());
    const updates: TaskUpdate[] = [];
    const result = await manager.callTool(
      "legacy",
      "long_job",
      { steps: 2, stepMs: 60 },
      { onTask: (update) => updates.push(update) },
    );
    expect(text(result)).toBe("job done after 2 steps");
    expect(sent(frames, "tools/call")[0]?.params).toHaveProperty("task");
    expect(sent(frames, "tasks/result")).toHaveLength(1);
    expect(updates.map((update) => update.status)).toEqual(expect.arrayContaining(["working", "completed"]));
  });

  it("server-everything's simulate-research-query (2025) runs to its report", async () => {
    const { manager } = await started(
      serverConfig("everything", { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] }),
    );
    const messages: string[] = [];
    const result = await manager.callTool(
      "everything",
      "simulate-research-query",
      { topic: "tides" },
      { onTask: (update) => messages.push(update.statusMessage ?? "") },
    );
    expect(text(result)).toContain("# Research Report: tides");
    expect(messages).toContain("Gathering sources...");
  });

  it("server-everything (2025): a question the task asks comes through tasks/result and is answered", async () => {
    const asked: string[] = [];
    const requests: ServerRequestHandlers = {
      createMessage: () => Promise.reject(new Error("no sampling here")),
      elicit: (_server, params) => {
        asked.push(params.message);
        return Promise.resolve({ action: "accept", content: { interpretation: "snake" } });
      },
    };
    const { manager } = await started(
      serverConfig("everything", { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] }),
      requests,
    );
    const statuses: string[] = [];
    const result = await manager.callTool(
      "everything",
      "simulate-research-query",
      { topic: "python", ambiguous: true },
      { onTask: (update) => statuses.push(update.status) },
    );
    expect(asked).toEqual([
      expect.stringContaining('The research query "python" could have multiple interpretations'),
    ]);
    expect(text(result)).toContain("# Research Report: python (snake)");
    expect(statuses.at(-1)).toBe("completed");
  });

  for (const [era, config] of [
    ["2026", MODERN],
    ["2025", LEGACY],
  ] as const)
    it(`${era}: cancelling the call sends tasks/cancel for its task, never notifications/cancelled`, async () => {
      const { manager, frames } = await started(config());
      const stop = new AbortController();
      const updates: TaskUpdate[] = [];
      const call = manager
        .callTool(
          config().name,
          "long_job",
          { steps: 200, stepMs: 50 },
          {
            signal: stop.signal,
            onTask: (update) => {
              updates.push(update);
              // Once it has made progress (whichever step a poll on a busy machine first sees).
              if (/^step [1-9]\d* of 200$/.test(update.statusMessage ?? "")) stop.abort();
            },
          },
        )
        .catch((error: unknown) => error);
      expect(await call).toMatchObject({ failure: "cancelled" });
      const taskId = updates[0]?.taskId;
      await waitFor(() => sent(frames, "tasks/cancel").length === 1, "tasks/cancel");
      expect(sent(frames, "tasks/cancel")[0]?.params).toMatchObject({ taskId });
      const callId = sent(frames, "tools/call")[0]?.id;
      expect(
        sent(frames, "notifications/cancelled").filter((message) => message.params?.requestId === callId),
      ).toEqual([]);
      await waitFor(() => manager.tasks()[0]?.status === "cancelled", "the task listed as cancelled");
    });

  it("the call's hard limit (maxCallMs) stops the wait and cancels the task, and says so", async () => {
    const { manager, frames } = await started(MODERN({ timeoutMs: 400, maxCallMs: 400 }));
    const error = await manager
      .callTool("modern", "long_job", { steps: 500, stepMs: 50 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as Error).message).toMatch(
      /^stopped after 400 ms, the most one call to server "modern" may take \(maxCallMs in its config\), though it kept reporting progress; its task job-\d+ was cancelled$/,
    );
    await waitFor(() => sent(frames, "tasks/cancel").length === 1, "tasks/cancel");
    const cancels = await manager.callTool("modern", "task_cancels", {});
    expect(text(cancels)).toMatch(/^job-\d+$/);
  });

  it("2026: a task's question (input_required in tasks/get) is answered through the person's handlers", async () => {
    const asked: string[] = [];
    const requests: ServerRequestHandlers = {
      createMessage: () => Promise.reject(new Error("no sampling here")),
      elicit: (server, params) => {
        asked.push(`${server}: ${params.message}`);
        return Promise.resolve({ action: "accept", content: { go: true } });
      },
    };
    const { manager, frames } = await started(MODERN(), requests);
    const updates: TaskUpdate[] = [];
    const result = await manager.callTool(
      "modern",
      "long_job",
      { steps: 3, stepMs: 60, question: "Carry on?" },
      { onTask: (update) => updates.push(update) },
    );
    expect(text(result)).toBe("job done after 3 steps (go on: yes)");
    expect(asked).toEqual(["modern: Carry on?"]);
    expect(updates.map((update) => update.status)).toContain("input_required");
    expect(sent(frames, "tasks/update")[0]?.params).toMatchObject({
      inputResponses: { go_on: { action: "accept", content: { go: true } } },
    });
  });

  it("2026: where nobody can be asked, the task's question is declined and the task goes on", async () => {
    const { manager } = await started(MODERN());
    const result = await manager.callTool("modern", "long_job", {
      steps: 2,
      stepMs: 60,
      question: "Carry on?",
    });
    expect(text(result)).toBe("job done after 2 steps (answer: decline)");
  });

  it("a tool that requires a task, on a server that offers none, is refused with why and never sent", async () => {
    const dir = await tempDir();
    const catalog = path.join(dir, "catalog.json");
    await writeJson(catalog, {
      name: "notasks",
      tools: [{ name: "slow", description: "Needs a task.", execution: { taskSupport: "required" } }],
    });
    const { manager, frames } = await started(
      // On 2025: 2026 has no execution.taskSupport (the server decides per call).
      serverConfig("notasks", { ...toolCatalogLaunch(catalog), protocol: "2025-11-25" }),
    );
    const error = await manager.callTool("notasks", "slow", {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      failure: "business",
      message:
        'slow can only run as an MCP task, and server "notasks" does not offer tasks for tool calls (capabilities.tasks.requests.tools.call)',
    });
    expect(sent(frames, "tools/call")).toEqual([]);
  });
});
