import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { hostileLaunch } from "../support/hostile.js";
import { waitForFileText } from "../support/poll.js";
import { processesMatching } from "../support/process-table.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/**
 * A stdio server that leaves a daemon in a session of its own (setsid), outside the process
 * group mcpterm stops: the daemon goes when mcpterm stops the server.
 */
const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

async function project(daemon: string): Promise<string> {
  const dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { hostile: hostileLaunch(randomUUID(), { HOSTILE_DAEMON: daemon }) },
  });
  return dir;
}

describe("a daemon a stdio server started outside its process group", () => {
  it("is gone by the time `mcpterm tools` exits", async () => {
    const daemon = `daemon-${randomUUID()}`;
    const run = await runCli(["tools", "--trust-config"], { cwd: await project(daemon), env: cleanEnv() });
    // Listed (its lint errors make the exit 1), so the server was up and had started the daemon.
    expect(run.stdout, run.stderr).toContain("send_message");
    expect(processesMatching(daemon)).toEqual([]);
  });

  it("is gone by the time mcpterm -p exits on SIGTERM, mid-call", async () => {
    const daemon = `daemon-${randomUUID()}`;
    const dir = await project(daemon);
    const model = await startScriptedModelServer([
      { toolCalls: [{ name: "hostile__progress_flood", arguments: "{}" }] },
      { text: "never" },
    ]);
    models.push(model);
    const trace = path.join(dir, "trace.jsonl");
    let running: number[] = [];
    const run = await runCli(
      ["-p", "x", "--trust-config", "--trace", trace, "--model", "m", "--base-url", model.baseUrl],
      {
        cwd: dir,
        env: cleanEnv(),
        onSpawn: (child) =>
          void waitForFileText(trace, '"tool_started"').then(
            () => {
              // It was there while the server ran.
              running = processesMatching(daemon);
              child.kill("SIGTERM");
            },
            () => child.kill("SIGKILL"),
          ),
      },
    );
    expect(run.code).toBe(143);
    expect(running).toHaveLength(1);
    expect(processesMatching(daemon)).toEqual([]);
  }, 30_000);
});
