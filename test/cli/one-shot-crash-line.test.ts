import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

describe("a call lost to its server's crash, in one-shot text mode", () => {
  it("says on stderr the whole reason, down to the line the server's stderr gave", async () => {
    const dir = await tempDir();
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { fx: fixtureLaunch("one-shot-crash-line") },
    });
    const model = await startScriptedModelServer([
      { toolCalls: [{ id: "c", name: "fx__crash", arguments: "{}" }] },
      { text: "it crashed" },
    ]);
    models.push(model);
    const run = await runCli(
      ["-p", "crash it", "--trust-config", "--no-kb", "--yes", "--model", "m", "--base-url", model.baseUrl],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code).toBe(4);
    const line = run.stderr.split("\n").find((candidate) => candidate.startsWith("✗ fx/crash"));
    // The end is the part that says why: it must not be cut off.
    expect(line).toMatch(
      /^✗ fx\/crash \{\} failed \(transient\): .*exited \(code 3\).*crashing on purpose\)?$/,
    );

    // What is said during the turn (the server's exit) is not among the warnings of its start.
    const again = await startScriptedModelServer([
      { toolCalls: [{ id: "c", name: "fx__crash", arguments: "{}" }] },
      { text: "it crashed" },
    ]);
    models.push(again);
    const json = await runCli(
      [
        "-p",
        "crash it",
        "--trust-config",
        "--no-kb",
        "--yes",
        "--model",
        "m",
        "--base-url",
        again.baseUrl,
        "--output",
        "json",
      ],
      { cwd: dir, env: cleanEnv() },
    );
    expect(json.stderr).toMatch(/exited/);
    const { warnings } = JSON.parse(json.stdout) as { warnings: string[] };
    expect(warnings.filter((warning) => /exited|crashing/.test(warning))).toEqual([]);
  });
});
