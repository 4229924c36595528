import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { startScriptedModelServer, type ScriptedReply } from "../support/scripted-model-server.js";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

const STEPS = 14;
const replies: ScriptedReply[] = [
  ...Array.from({ length: STEPS }, (_, step) => ({
    toolCalls: [
      { name: "fixture__echo", arguments: JSON.stringify({ text: `step ${step + 1}` }) },
      { name: "fixture__slow", arguments: JSON.stringify({ ms: 20 + step }) },
    ],
  })),
  { text: "Done after fourteen steps." },
];
const model = await startScriptedModelServer(replies);
afterAll(() => model.close());

it("runs a 14-step turn in the real binary without an abort-listener warning", async () => {
  const dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { fixture: fixtureLaunch("listener-leak") },
  });
  const run = await runCli(["--trust-config", "--max-steps", "20", "-p", "echo fourteen times"], {
    cwd: dir,
    env: cleanEnv({ MCPTERM_MODEL: "scripted", OPENAI_BASE_URL: model.baseUrl }),
  });
  expect(run.stdout).toContain("Done after fourteen steps.");
  expect(model.requests).toHaveLength(STEPS + 1);
  expect(run.stderr).not.toContain("MaxListenersExceededWarning");
  expect(run.stderr).not.toContain("abort listeners");
  expect(run.code).toBe(0);
});
