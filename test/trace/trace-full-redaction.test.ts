import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UNCHECKED } from "../../src/core/policy/redacted-json.js";
import { FAKE_LINEAR_KEY } from "../support/fake-secrets.js";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli, type CliRun } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const marker = randomUUID();
const servers: ScriptedModelServer[] = [];
const LINEAR_KEY = FAKE_LINEAR_KEY;

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

/**
 * `-p` in a fresh project whose model calls fixture/echo with `args`, the secret allowed out
 * (`--allow-secret-arguments`), with `flags` added; the project's folder and the run.
 */
async function echoRun(
  args: Record<string, unknown>,
  flags: string[],
): Promise<{ dir: string; run: CliRun }> {
  const dir = await tempDir("mcpterm-trace-full-");
  await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { fixture: fixtureLaunch(marker) } });
  const model = await startScriptedModelServer([
    { toolCalls: [{ name: "fixture__echo", arguments: JSON.stringify(args) }] },
    { text: "done" },
  ]);
  servers.push(model);
  const run = await runCli(
    [
      "-p",
      "x",
      "--trust-config",
      "--allow-secret-arguments",
      ...flags,
      "--model",
      "m",
      "--base-url",
      model.baseUrl,
    ],
    { cwd: dir, env: cleanEnv() },
  );
  return { dir, run };
}

describe("the files a session keeps hold no secret that only the full rule set knows", () => {
  it("takes it out of the trace's frames and events and of the saved session, as out of the result", async () => {
    const { dir, run } = await echoRun({ text: `key ${LINEAR_KEY}` }, ["--trace", "trace.jsonl"]);
    expect(run.code, run.stderr).toBe(0);
    // The progress line on stderr shows the call's arguments: redacted alike.
    expect(run.stderr).toContain("fixture/echo");
    expect(run.stderr).not.toContain(LINEAR_KEY.slice(8));
    const trace = await readFile(path.join(dir, "trace.jsonl"), "utf8");
    expect(trace).toContain('"type":"wire"');
    expect(trace).toContain("[REDACTED]");
    expect(trace).not.toContain(LINEAR_KEY.slice(8));
    expect(trace).not.toContain(UNCHECKED);
    // The saved session holds no more than the trace: the call's arguments are in its history.
    const sessions = path.join(dir, ".mcpterm", "sessions");
    const [saved] = await readdir(sessions);
    const session = await readFile(path.join(sessions, saved ?? "none"), "utf8");
    expect(session).toContain("fixture__echo");
    expect(session).not.toContain(LINEAR_KEY.slice(8));
  });

  it("takes it out of --output stream-json's events too, as a key or a value", async () => {
    const { run } = await echoRun({ text: `key ${LINEAR_KEY}`, [LINEAR_KEY]: 1 }, [
      "--output",
      "stream-json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('"type":"tool_call_proposed"');
    expect(run.stdout).toContain("[REDACTED]");
    expect(run.stdout + run.stderr).not.toContain(LINEAR_KEY.slice(8));
  });
});
