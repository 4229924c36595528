import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

describe("a server that cannot be started, in one-shot mode", () => {
  it("is told once on stderr with why, and the answer still comes from the servers that did start", async () => {
    const dir = await tempDir();
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: {
        good: fixtureLaunch("start-failure-notice"),
        bad: {
          command: process.execPath,
          args: ["-e", "console.error('boom: cannot find config file /etc/x'); process.exit(2)"],
        },
        missing: { command: path.join(dir, "no-such-server") },
      },
    });
    const model = await startScriptedModelServer(() => ({ text: "hello back" }));
    models.push(model);
    const run = await runCli(
      ["-p", "hello", "--trust-config", "--no-kb", "--model", "m", "--base-url", model.baseUrl],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("hello back\n");
    const told = run.stderr.split("\n").filter((line) => line.includes("could not be started"));
    expect(told).toHaveLength(2);
    expect(told.find((line) => line.includes('"bad"'))).toMatch(
      /^warning: server "bad" could not be started: .*code 2.*boom: cannot find config file \/etc\/x.* — its tools are unavailable$/,
    );
    expect(told.find((line) => line.includes('"missing"'))).toMatch(
      /^warning: server "missing" could not be started: .*no-such-server.* — its tools are unavailable$/,
    );
    // The model was offered the tools of the server that did start.
    const offered = (model.requests[0]?.body as { tools?: Array<{ function: { name: string } }> }).tools;
    expect(offered?.some((tool) => tool.function.name === "good__echo")).toBe(true);

    // A script reading only stdout learns it too: in --output json's warnings, and as
    // stream-json warning events before the turn's.
    const args = ["-p", "hello", "--trust-config", "--no-kb", "--model", "m", "--base-url", model.baseUrl];
    const json = await runCli([...args, "--output", "json"], { cwd: dir, env: cleanEnv() });
    expect(json.code).toBe(0);
    const warnings = (JSON.parse(json.stdout) as { warnings: string[] }).warnings;
    expect(warnings.filter((warning) => warning.includes("could not be started")).sort()).toEqual([
      expect.stringMatching(/^server "bad" could not be started: .*boom/),
      expect.stringMatching(/^server "missing" could not be started: /),
    ]);
    const streamed = await runCli([...args, "--output", "stream-json"], { cwd: dir, env: cleanEnv() });
    const events = streamed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; message?: string });
    const firstTurn = events.findIndex((event) => event.type === "turn_start");
    const early = events.slice(0, firstTurn).filter((event) => event.type === "warning");
    expect(early.filter((event) => event.message?.includes("could not be started"))).toHaveLength(2);
  });
});
