import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { startScriptedModelServer } from "../support/scripted-model-server.js";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

const model = await startScriptedModelServer([
  { toolCalls: [{ id: "first", name: "fixture__echo", arguments: JSON.stringify({ text: "one" }) }] },
  {
    toolCalls: [
      { id: "second", name: "fixture__echo", arguments: JSON.stringify({ text: "two" }) },
      { id: "third", name: "fixture__sum", arguments: JSON.stringify({ a: 1, b: 2 }) },
    ],
  },
]);
afterAll(() => model.close());

it("lists the calls the model proposed at the step limit as not run in --output json", async () => {
  const dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { fixture: fixtureLaunch("max-steps-json") },
  });
  const run = await runCli(
    ["--trust-config", "--no-kb", "--max-steps", "2", "--output", "json", "-p", "echo twice"],
    {
      cwd: dir,
      env: cleanEnv({ MCPTERM_MODEL: "scripted", OPENAI_BASE_URL: model.baseUrl }),
    },
  );
  expect(run.code).toBe(1);
  const summary = JSON.parse(run.stdout) as {
    reason: string;
    toolCalls: Array<{ id: string; name: string; ok: boolean; notRun: string | null; arguments: unknown }>;
  };
  expect(summary.reason).toBe("max_steps");
  expect(summary.toolCalls.map(({ id, name, notRun }) => ({ id, name, notRun: notRun ?? null }))).toEqual([
    { id: "first", name: "fixture__echo", notRun: null },
    { id: "second", name: "fixture__echo", notRun: "Not run: the turn reached its step limit." },
    { id: "third", name: "fixture__sum", notRun: "Not run: the turn reached its step limit." },
  ]);
  expect(summary.toolCalls[2]?.arguments).toEqual({ a: 1, b: 2 });
});
