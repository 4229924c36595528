import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, trustingConfig } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/**
 * `mcpterm call … --json | head`: the reader takes what it wants and goes away. mcpterm's next
 * write used to end it with Node's stack trace of an unhandled EPIPE; it now stops as a shell's
 * command stopped by SIGPIPE does (exit 141), with nothing on stderr and no server left behind.
 */
let dir: string;
const marker = randomUUID();
let model: ScriptedModelServer | undefined;
afterAll(() => model?.close());

beforeAll(async () => {
  dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { fixture: fixtureLaunch(marker) } });
});

/**
 * Runs the real binary, closing its stdout once the first piece arrives, as `head -c 1` would,
 * or (`at: "start"`) before it writes anything, as `… | true` would.
 */
function runClosingStdout(
  args: string[],
  at: "first-piece" | "start" = "first-piece",
): Promise<{ code: number | null; stderr: string; read: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...trustingConfig(args)], { cwd: dir, env: cleanEnv() });
    let stderr = "";
    let read = 0;
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    if (at === "start") child.stdout.destroy();
    else
      child.stdout.once("data", (chunk: Buffer) => {
        read = chunk.length;
        child.stdout.destroy();
      });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stderr, read }));
  });
}

describe("output whose reader went away", () => {
  it("stops mcpterm call with 141, nothing on stderr, and its server stopped", async () => {
    // 2 MB of result: far more than a pipe holds, so the reader leaves before it is written.
    const run = await runClosingStdout(["call", "fixture/big", '{"chars": 2000000}', "--json"]);
    expect(run.read).toBeGreaterThan(0);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(141);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("stops --version and --help the same way, before anything else loads", async () => {
    for (const flag of ["--version", "--help"]) {
      const run = await runClosingStdout([flag], "start");
      expect(run.stderr, flag).toBe("");
      expect(run.code, flag).toBe(141);
    }
  });

  it("stops mcpterm trace, whose whole output is one write, the same way", async () => {
    const file = path.join(dir, `big-${randomUUID()}.jsonl`);
    const records = [
      '{"type":"session_start","sessionId":"s","version":"0.1.0","model":"m","servers":[],"cwd":"/tmp","ts":1}',
      `{"type":"turn_start","turn":1,"input":"hi","ts":2}`,
      `{"type":"turn_end","reason":"completed","answer":${JSON.stringify("line\n".repeat(200_000))},"steps":1,"deniedCalls":0,"ts":3}`,
    ];
    await writeFile(file, `${records.join("\n")}\n`);
    const run = await runClosingStdout(["trace", file], "start");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(141);
  });

  it("stops a one-shot run mid-answer with 141 and not a word of being interrupted", async () => {
    model = await startScriptedModelServer([{ text: "word ".repeat(200_000), chunkSize: 5000 }]);
    const run = await runClosingStdout([
      "-p",
      "write a lot",
      "--trust-config",
      "--no-kb",
      "--model",
      "m",
      "--base-url",
      model.baseUrl,
    ]);
    expect(run.read).toBeGreaterThan(0);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(141);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});
