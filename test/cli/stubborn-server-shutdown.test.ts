import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForFileText } from "../support/poll.js";
import { processesMatching } from "../support/process-table.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

describe("a stdio server that ignores everything but SIGKILL", () => {
  it.each(["SIGTERM", "SIGHUP"] as const)(
    "is gone by the time mcpterm -p exits on %s, mid-call",
    async (signal) => {
      const marker = randomUUID();
      const dir = await tempDir();
      await writeJson(path.join(dir, "mcp.config.json"), {
        mcpServers: { fixture: { ...fixtureLaunch(marker), env: { FIXTURE_STUBBORN: "1" } } },
      });
      const model = await startScriptedModelServer([
        { toolCalls: [{ name: "fixture__slow", arguments: '{"ms": 20000}' }] },
        { text: "never" },
      ]);
      models.push(model);
      const trace = path.join(dir, "trace.jsonl");
      const run = await runCli(
        ["-p", "x", "--trust-config", "--trace", trace, "--model", "m", "--base-url", model.baseUrl],
        {
          cwd: dir,
          env: cleanEnv(),
          onSpawn: (child) =>
            void waitForFileText(trace, '"tool_started"').then(
              () => child.kill(signal),
              () => child.kill("SIGKILL"),
            ),
        },
      );
      expect(run.code).toBe(signal === "SIGTERM" ? 143 : 129);
      // Read at the moment it exited, not after a wait: the shutdown finished before the exit.
      expect(processesMatching(marker)).toEqual([]);
    },
    30_000,
  );
});
