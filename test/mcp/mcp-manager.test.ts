import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { ToolCallError } from "../../src/core/mcp/tool-call-error.js";
import type { WireFrame } from "../../src/core/mcp/types.js";
import { EVERYTHING_SERVER, fixtureLaunch, resultsLaunch, serverConfig } from "../support/fixtures.js";
import { processesMatching, waitForNoProcesses } from "../support/process-table.js";

const managers: McpManager[] = [];
function manage(manager: McpManager): McpManager {
  managers.push(manager);
  return manager;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

/** A process that starts but never answers `initialize`. */
function hang(marker: string, startupTimeoutMs: number) {
  return serverConfig("hangs", {
    command: process.execPath,
    args: ["-e", "setInterval(() => {}, 1000)", marker],
    startupTimeoutMs,
  });
}

describe("McpManager", () => {
  it("connects a fixture and the published everything server in parallel and lists their tools", async () => {
    const marker = randomUUID();
    const manager = manage(
      new McpManager(
        [
          serverConfig("fixture", fixtureLaunch(marker)),
          serverConfig("everything", { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] }),
        ],
        { parentEnv: process.env },
      ),
    );
    await manager.start();
    const servers = manager.servers();
    expect(servers.map((server) => [server.name, server.status])).toEqual([
      ["fixture", "connected"],
      ["everything", "connected"],
    ]);
    expect(servers[0]?.serverInfo?.name).toBe("fixture");
    expect(servers[0]?.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const names = manager.tools().map((tool) => tool.modelName);
    expect(names).toContain("fixture__echo");
    expect(names.some((name) => name.startsWith("everything__"))).toBe(true);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);

    const result = await manager.callTool("fixture", "sum", { a: 2, b: 3 });
    expect(result.content).toEqual([{ type: "text", text: "5" }]);
  });

  it("marks a server whose command does not exist as failed with the OS error, and the rest still work", async () => {
    const manager = manage(
      new McpManager(
        [
          serverConfig("missing", { command: "definitely-not-a-command-mcpterm" }),
          serverConfig("fixture", fixtureLaunch(randomUUID())),
        ],
        { parentEnv: process.env },
      ),
    );
    await manager.start();
    const [missing, fixture] = manager.servers();
    expect(missing?.status).toBe("failed");
    expect(missing?.error).toMatch(/definitely-not-a-command-mcpterm.*ENOENT/);
    expect(fixture?.status).toBe("connected");
  });

  it("makes ready servers usable while one that never answers initialize is still pending", async () => {
    const hangMarker = randomUUID();
    const manager = manage(
      new McpManager(
        [
          // A deadline no machine reaches: this test is about order, the timeout has its own test.
          hang(hangMarker, 120_000),
          serverConfig("first", fixtureLaunch(randomUUID())),
          serverConfig("second", { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] }),
        ],
        { parentEnv: process.env, shutdownGraceMs: 200 },
      ),
    );
    const settled = manager.start();
    const ready = await new Promise<string[]>((resolve) => {
      const check = (): void => {
        const connected = manager.servers().filter((server) => server.status === "connected");
        if (connected.length === 2) resolve(connected.map((server) => server.name));
      };
      manager.subscribe(check);
      check();
    });
    expect(ready.sort()).toEqual(["first", "second"]);
    expect(manager.servers()[0]?.status).toBe("connecting");
    expect(manager.tools().some((tool) => tool.server === "first")).toBe(true);
    expect(await manager.callTool("first", "echo", { text: "ready" })).toMatchObject({
      content: [{ type: "text", text: "ready" }],
    });

    await manager.close();
    await settled;
    expect(await waitForNoProcesses(hangMarker)).toEqual([]);
  });

  it("fails a server that never answers initialize once its start-up deadline passes, and stops it", async () => {
    const hangMarker = randomUUID();
    const manager = manage(
      new McpManager([hang(hangMarker, 500)], { parentEnv: process.env, shutdownGraceMs: 200 }),
    );
    await manager.start();
    const hung = manager.servers()[0];
    expect(hung?.status).toBe("failed");
    expect(hung?.error).toMatch(
      /did not finish connecting \(server\/discover or initialize\) within 500 ms, its startupTimeoutMs/,
    );
    expect(await waitForNoProcesses(hangMarker)).toEqual([]);
  });

  it("classifies a server crash mid-call as transient with the cause, and brings the server back", async () => {
    const manager = manage(
      new McpManager([serverConfig("fixture", fixtureLaunch(randomUUID()))], { parentEnv: process.env }),
    );
    await manager.start();
    const firstPid = manager.servers()[0]?.pid;
    const failure = await manager.callTool("fixture", "crash", {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolCallError);
    expect((failure as ToolCallError).failure).toBe("transient");
    expect((failure as ToolCallError).message).toMatch(
      /the result is unknown: server "fixture" exited during the call.*the server is back.*exited \(code 3\).*crashing on purpose/,
    );

    // The call waited for the server to come back: a new process, connected, its tools listed.
    const snapshot = manager.servers()[0];
    expect(snapshot?.status).toBe("connected");
    expect(snapshot?.pid).not.toBe(firstPid);
    expect(snapshot?.tools.map((tool) => tool.definition.name)).toContain("echo");
    const again = await manager.callTool("fixture", "echo", { text: "back" });
    expect(again.content).toEqual([{ type: "text", text: "back" }]);
  });

  it("times a call out as transient and tells the server it was cancelled", async () => {
    const frames: WireFrame[] = [];
    const manager = manage(
      new McpManager([serverConfig("fixture", { ...fixtureLaunch(randomUUID()), timeoutMs: 300 })], {
        parentEnv: process.env,
        onWire: (frame) => frames.push(frame),
      }),
    );
    await manager.start();
    const failure = await manager.callTool("fixture", "slow", { ms: 5000 }).catch((error: unknown) => error);
    expect((failure as ToolCallError).failure).toBe("transient");
    expect((failure as ToolCallError).message).toMatch(/did not answer within 300 ms/);
    const sent = frames
      .filter((frame) => frame.direction === "send")
      .map((frame) => (frame.message as { method?: string }).method);
    expect(sent).toContain("notifications/cancelled");
  });

  it("cancels a call when its signal aborts and reports progress while it runs", async () => {
    const manager = manage(
      new McpManager([serverConfig("fixture", fixtureLaunch(randomUUID()))], { parentEnv: process.env }),
    );
    await manager.start();
    const progress: number[] = [];
    const done = await manager.callTool(
      "fixture",
      "slow",
      { ms: 200 },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(done.content).toEqual([{ type: "text", text: "waited 200 ms" }]);
    expect(progress).toEqual([1, 2, 3]);

    const controller = new AbortController();
    const pending = manager.callTool("fixture", "slow", { ms: 5000 }, { signal: controller.signal });
    controller.abort();
    const failure = await pending.catch((error: unknown) => error);
    expect((failure as ToolCallError).failure).toBe("cancelled");
  });

  it("records stdout lines that are not JSON-RPC instead of dropping the connection", async () => {
    const manager = manage(
      new McpManager(
        [serverConfig("noisy", { ...fixtureLaunch(randomUUID()), env: { FIXTURE_STDOUT_NOISE: "1" } })],
        {
          parentEnv: process.env,
        },
      ),
    );
    await manager.start();
    expect(manager.servers()[0]?.status).toBe("connected");
    expect(manager.connection("noisy")?.stdoutNoise()).toEqual(["fixture server starting up!"]);
    expect(manager.connection("noisy")?.stderrLines()).toContain("fixture: ready");
  });

  it("keeps what a restarted server's earlier process wrote, marked where the new one begins", async () => {
    const manager = manage(
      new McpManager(
        [serverConfig("noisy", { ...fixtureLaunch(randomUUID()), env: { FIXTURE_STDOUT_NOISE: "1" } })],
        { parentEnv: process.env },
      ),
    );
    await manager.start();
    await manager.restart("noisy");
    expect(manager.servers()[0]?.status).toBe("connected");
    const connection = manager.connection("noisy");
    const mark = /^── restarted at \d\d:\d\d:\d\d; the new process's lines follow ──$/;
    // Before: the first process's lines were gone, and nothing said a process had been replaced.
    const { stdout: noise, stderr } = connection?.linesSinceStart() ?? { stdout: [], stderr: [] };
    expect(noise).toHaveLength(3);
    expect(noise[0]).toBe("fixture server starting up!");
    expect(noise[1]).toMatch(mark);
    expect(noise[2]).toBe("fixture server starting up!");
    // Lint and error texts read the running process's lines alone.
    expect(connection?.stdoutNoise()).toEqual(["fixture server starting up!"]);
    const at = stderr.findIndex((line) => mark.test(line));
    expect(stderr.slice(0, at)).toContain("fixture: ready");
    expect(stderr.slice(at + 1)).toContain("fixture: ready");
    const restarted = /\[info\] mcpterm: restarted; the new process's messages follow$/;
    expect(connection?.logMessages().some((line) => restarted.test(line))).toBe(true);
  });

  it("takes a server's whole process tree down on close, including children of a shell", async () => {
    const marker = randomUUID();
    const launch = fixtureLaunch(marker);
    // `; true` keeps sh alive as the parent, so the server is a grandchild of ours.
    const shellLine = `${[launch.command, ...launch.args].map((part) => `'${part}'`).join(" ")}; true`;
    const manager = new McpManager([serverConfig("shell", { command: "sh", args: ["-c", shellLine] })], {
      parentEnv: process.env,
    });
    await manager.start();
    expect(manager.servers()[0]?.status).toBe("connected");
    expect(processesMatching(marker).length).toBeGreaterThanOrEqual(2);
    await manager.close();
    expect(manager.servers()[0]?.status).toBe("closed");
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});

describe("results the SDK client would refuse", () => {
  async function resultsAndEverything(): Promise<McpManager> {
    const manager = manage(
      new McpManager(
        [
          serverConfig("results", resultsLaunch(randomUUID())),
          serverConfig("everything", { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] }),
        ],
        { parentEnv: process.env },
      ),
    );
    await manager.start();
    return manager;
  }

  it("connects a server one of whose outputSchemas cannot be compiled, and calls its tools", async () => {
    const manager = await resultsAndEverything();
    const results = manager.servers().find((server) => server.name === "results");
    expect(results?.status).toBe("connected");
    expect(results?.tools.map((tool) => tool.definition.name)).toContain("get_weather_uncompilable");
    const result = await manager.callTool("results", "get_weather_uncompilable", {});
    expect(result.structuredContent).toEqual({ temperature: 21.5, conditions: "sunny" });
  });

  it("returns a result whose structuredContent breaks the outputSchema, or is missing, as the server sent it", async () => {
    const manager = await resultsAndEverything();
    const wrong = await manager.callTool("results", "get_weather_wrong", {});
    expect(wrong.structuredContent).toEqual({ temperature: "warm", conditions: 7 });
    const missing = await manager.callTool("results", "get_weather_missing", {});
    expect(missing.structuredContent).toBeUndefined();
    expect(missing.content).toEqual([{ type: "text", text: '{"temperature":21.5,"conditions":"sunny"}' }]);
  });
});
