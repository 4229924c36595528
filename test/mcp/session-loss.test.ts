import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { startHostileHttpServer, type HostileHttpServer } from "../support/hostile-http-server.js";
import { cleanEnv, runCli, type CliRun } from "../support/run-cli.js";

/**
 * A real Streamable HTTP server with sessions that forgets them (answers 404 for an old
 * Mcp-Session-Id, as a restarted server does), driven through `mcpterm call`: a new session
 * without the old id, and the call sent again only when the resend rule allows it.
 */
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function remote(trust: boolean): Promise<{ server: HostileHttpServer; dir: string }> {
  const server = await startHostileHttpServer();
  closers.push(() => server.close());
  const dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { remote: { url: server.url, trust, timeoutMs: 120_000 } },
  });
  return { server, dir };
}

/** `mcpterm call`, the config vouched for: its `trust` applies only then. */
function call(dir: string, ...args: string[]): Promise<CliRun> {
  return runCli(["call", ...args, "--trust-config"], { cwd: dir, env: cleanEnv() });
}

describe("a server that drops its sessions", () => {
  it("mid-session: a new session, and a read-only call of a trusted server sent once more", async () => {
    const { server, dir } = await remote(true);
    server.forgetOnce("call");
    const run = await call(dir, "remote/echo", '{"text":"again"}');

    expect(run.stderr).not.toMatch(/mcpterm:/);
    expect(run.stdout).toBe("again\n");
    expect(run.code).toBe(0);
    expect(server.initializes).toBe(2);
    expect(server.calls).toEqual(["echo", "echo"]);
    expect(server.handled).toEqual(["echo"]);
  });

  it("mid-session: a write gets a new session but is not sent again, and says the result is unknown", async () => {
    const { server, dir } = await remote(true);
    server.forgetOnce("call");
    const run = await call(dir, "remote/save_record", "{}", "--yes");

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mcpterm: the result is unknown: server "remote" lost its session \(HTTP 404\) during the call; the call was not sent again/,
    );
    expect(server.initializes).toBe(2);
    expect(server.calls).toEqual(["save_record"]);
    expect(server.handled).toEqual([]);
  });

  it("right after initialize: a new session without the old id, and the call succeeds", async () => {
    const { server, dir } = await remote(false);
    server.forgetOnce("initialize");
    const run = await call(dir, "remote/echo", '{"text":"hello"}');

    expect(run.stderr).not.toMatch(/mcpterm:/);
    expect(run.stdout).toBe("hello\n");
    expect(run.code).toBe(0);
    expect(server.initializes).toBe(2);
    expect(server.handled).toEqual(["echo"]);
  });
});
