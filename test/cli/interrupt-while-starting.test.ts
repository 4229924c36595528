import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { waitFor } from "../support/poll.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/**
 * Ctrl+C while a server is still starting: the run ends as interrupted (130) at once, and says
 * only that. A one-shot run used to wait out the server's whole startupTimeoutMs (the servers
 * are in process groups of their own, so a terminal's Ctrl+C does not reach them), and what
 * stopping did to a start (a connection closed mid-handshake) came out as the server's failure.
 */
const SILENT_SERVER = String.raw`
import { writeFileSync } from "node:fs";
writeFileSync(process.argv[2], "started");
setInterval(() => {}, 1000);
`;

const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

async function project(): Promise<{ dir: string; started: string; marker: string }> {
  const dir = await tempDir("mcpterm-interrupt-start-");
  const started = path.join(dir, "started");
  const marker = `silent-${randomUUID()}`;
  await writeFile(path.join(dir, "silent.mjs"), SILENT_SERVER);
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      silent: {
        command: process.execPath,
        args: [path.join(dir, "silent.mjs"), started, marker],
        startupTimeoutMs: 60_000,
      },
    },
  });
  return { dir, started, marker };
}

/** Runs mcpterm with `args` and sends it SIGINT once the silent server has started. */
async function interrupted(args: string[], dir: string, started: string, env: NodeJS.ProcessEnv) {
  return runCli(args, {
    cwd: dir,
    env,
    onSpawn: (child) => {
      void waitFor(() => existsSync(started), "the server to start").then(() => child.kill("SIGINT"));
    },
  });
}

describe("Ctrl+C while a server starts", () => {
  it("mcpterm call: exit 130, interrupted, not a failed start", async () => {
    const { dir, started, marker } = await project();
    const run = await interrupted(["call", "silent/x", "--trust-config"], dir, started, cleanEnv());
    expect(run.code).toBe(130);
    expect(run.stderr).toBe("mcpterm: interrupted\n");
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it.each(["tools", "tools --search hi", "resources", "prompts", "doctor", "doctor silent"])(
    "mcpterm %s: exit 130 at once, interrupted, no report of a failed start",
    async (command) => {
      const { dir, started, marker } = await project();
      const run = await interrupted([...command.split(" "), "--trust-config"], dir, started, cleanEnv());
      expect(run.code).toBe(130);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe("mcpterm: interrupted\n");
      expect(await waitForNoProcesses(marker)).toEqual([]);
    },
  );

  it("one-shot: exit 130, and no warning that the server is unavailable", async () => {
    const { dir, started, marker } = await project();
    const model = await startScriptedModelServer(() => ({ text: "never asked" }));
    models.push(model);
    const run = await interrupted(
      ["-p", "hi", "--trust-config", "--no-kb", "--model", "m", "--base-url", model.baseUrl],
      dir,
      started,
      cleanEnv({ OPENAI_API_KEY: "x" }),
    );
    expect(run.code).toBe(130);
    expect(run.stderr).not.toContain("warning");
    expect(run.stderr).toMatch(/^mcpterm: interrupted\.?\n$/);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});
