import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { ToolCallError } from "../../src/core/mcp/tool-call-error.js";
import { serverConfig, tempDir, writeJson } from "../support/fixtures.js";
import { startHostileHttpServer, type HostileHttpServer } from "../support/hostile-http-server.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer } from "../support/scripted-model-server.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function connected(): Promise<{ server: HostileHttpServer; manager: McpManager }> {
  const server = await startHostileHttpServer();
  closers.push(() => server.close());
  // A call timeout far beyond the test's own: waiting it out would fail the test.
  const manager = new McpManager(
    [serverConfig("remote", { transport: "http", url: server.url, timeoutMs: 120_000 })],
    {
      parentEnv: {},
    },
  );
  closers.push(() => manager.close());
  await manager.start();
  expect(manager.servers()[0]?.status).toBe("connected");
  return { server, manager };
}

describe("Streamable HTTP faults", () => {
  it("a response stream closed before the answer fails the call at once, saying so", async () => {
    const { manager } = await connected();
    await expect(manager.callTool("remote", "get_dropped", {})).rejects.toThrow(
      'server "remote" closed the response stream before answering',
    );
    // The session is still fine for the next call.
    expect((await manager.callTool("remote", "echo", { text: "still here" })).content).toEqual([
      { type: "text", text: "still here" },
    ]);
  });

  it("a call answered with a page, not JSON-RPC, is the server's fault, named as such", async () => {
    const { manager } = await connected();
    const failure = await manager.callTool("remote", "get_page", {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolCallError);
    expect((failure as ToolCallError).failure).toBe("protocol");
    expect((failure as ToolCallError).message).toBe(
      'server "remote" answered with text/html; charset=utf-8, not JSON-RPC (application/json or text/event-stream); whether it acted on the request is unknown (a fault of the server or a proxy in front of it, not retried)',
    );
  });

  it("a resumable stream that cannot be resumed is the connection lost, not a wait for the timeout", async () => {
    // The SDK tries to resume from the event id, gives up after its attempts, and only says so;
    // the call waited out its timeout (120 s here, a minute by default) and failed as a timeout.
    const { server, manager } = await connected();
    await expect(manager.callTool("remote", "get_lost", {})).rejects.toThrow(
      /closed the connection during the call.*connection lost/,
    );
    expect(server.calls.filter((name) => name === "get_lost")).toHaveLength(1);
    // Connected again (a new session), the next call goes through.
    expect((await manager.callTool("remote", "echo", { text: "back" })).content).toEqual([
      { type: "text", text: "back" },
    ]);
  }, 30_000);

  it("one-shot mode reports it in one line and goes on with the turn", async () => {
    const server = await startHostileHttpServer();
    closers.push(() => server.close());
    const dir = await tempDir();
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { remote: { url: server.url, timeoutMs: 120_000 } },
    });
    const model = await startScriptedModelServer([
      { toolCalls: [{ id: "d1", name: "remote__get_dropped", arguments: "{}" }] },
      { text: "The server dropped it." },
    ]);
    closers.push(() => model.close());
    const run = await runCli(
      ["-p", "try it", "--trust-config", "--model", "m", "--base-url", model.baseUrl],
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /✗ remote\/get_dropped \{\} failed \(transient\): .*closed the response stream before answering/,
    );
    expect(run.stdout).toBe("The server dropped it.\n");
  });

  it("a connection reset mid-call is a server that could not be reached, in a sentence (exit 4)", async () => {
    const { manager } = await connected();
    await expect(manager.callTool("remote", "get_severed", {})).rejects.toThrow(
      /^the connection to server "remote" failed during the request: the connection was reset before an answer came \(ECONNRESET\); whether the server acted on it is unknown$/,
    );
    const server = await startHostileHttpServer();
    closers.push(() => server.close());
    const run = await runCli(["call", "get_severed", "--url", server.url], {
      cwd: await tempDir(),
      env: cleanEnv(),
    });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(
      /^mcpterm: the connection to server "\S+" failed during the request: .*ECONNRESET/,
    );
    expect(run.stderr).not.toContain("fetch failed");
  });

  it("a 404 for the session id starts a new session once and sends a call safe to re-send again", async () => {
    const { server, manager } = await connected();
    server.forgetSessions();
    const result = await manager.callTool("remote", "echo", { text: "again" }, { resendSafe: true });
    expect(result.content).toEqual([{ type: "text", text: "again" }]);
    expect(server.initializes).toBe(2);
    expect(manager.servers()[0]?.status).toBe("connected");
    expect(manager.connection("remote")?.logMessages().join("\n")).toMatch(
      /no longer knows this session \(HTTP 404\)/,
    );
  });

  it("a server that forgets every session at its start is said to, not blamed on its URL", async () => {
    const server = await startHostileHttpServer();
    closers.push(() => server.close());
    server.forgetAlways();
    const manager = new McpManager([serverConfig("remote", { transport: "http", url: server.url })], {
      parentEnv: {},
    });
    closers.push(() => manager.close());
    await manager.start();
    const [snapshot] = manager.servers();
    expect(snapshot?.status).toBe("failed");
    expect(snapshot?.error).toMatch(
      /^the server forgets its sessions at once: it answered initialize, then HTTP 404 to the next request carrying the session id it had just given, twice; /,
    );
    expect(snapshot?.error).not.toMatch(/check the URL|first message/);
    // A new session once, then no more: bounded.
    expect(server.initializes).toBe(2);
  });

  it("a server that forgets every session fails the call with one clear sentence, after one new session", async () => {
    const { server, manager } = await connected();
    server.forgetAlways();
    await expect(manager.callTool("remote", "echo", { text: "x" }, { resendSafe: true })).rejects.toThrow(
      /^server "remote" no longer knew its session \(HTTP 404\), and starting a new one failed: /,
    );
    // The first session, the new one, and the one more a session lost at its start gets: bounded.
    expect(server.initializes).toBe(3);
    expect(server.calls).toEqual(["echo"]);
  });
});
