/** The real binary against a model server whose stream goes silent mid-answer. */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, type CliRun } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const servers: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

const sentence = (model: ScriptedModelServer) =>
  `The model endpoint at ${model.baseUrl} went silent for 300 ms mid-answer; check the server, or raise model.idleTimeoutMs (or MCPTERM_MODEL_IDLE_TIMEOUT_MS) if it is just slow.`;

async function stalledRun(extraArgs: string[]): Promise<{ model: ScriptedModelServer; run: CliRun }> {
  const model = await startScriptedModelServer([{ stallAfterChunks: 2, text: "The answer is forty-two." }]);
  servers.push(model);
  const cwd = await tempDir();
  // The limit comes from the project's config file, as a user would set it.
  await writeJson(path.join(cwd, "mcp.config.json"), { model: { idleTimeoutMs: 300 } });
  const args = ["-p", "what is it?", "--model", "m", "--base-url", model.baseUrl, "--no-kb", ...extraArgs];
  return { model, run: await runCli(args, { cwd, env: cleanEnv() }) };
}

describe("mcpterm -p when the model stream stalls", () => {
  it("exits 1 with one sentence on stderr and keeps the partial answer on stdout", async () => {
    const { model, run } = await stalledRun([]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("The answ\n");
    expect(run.stderr).toBe(`mcpterm: ${sentence(model)}\n`);
    expect(model.requests).toHaveLength(1);
  });

  it("reports the partial answer and the error in --output json", async () => {
    const { model, run } = await stalledRun(["--output", "json"]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      answer: "The answ",
      reason: "error",
      error: { code: "llm", message: sentence(model) },
    });
    expect(run.stderr).toBe(`mcpterm: ${sentence(model)}\n`);
  });
});
