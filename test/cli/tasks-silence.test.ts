import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * A task is alive while its server answers each poll (tasks/get), whether or not its status
 * message changed: the silence limit (timeoutMs) must not cancel a task whose server keeps
 * answering, nor say the server "did not answer". Here each step (2500 ms) outlasts timeoutMs
 * (1000 ms) while the server answers a poll every 200 ms.
 */
let dir: string;
beforeAll(async () => {
  dir = await tempDir();
  const patient = { timeoutMs: 1000, maxCallMs: 60_000 };
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      modern: { command: process.execPath, args: [compiledFixture("modern-server")], ...patient },
      legacy: { command: process.execPath, args: [compiledFixture("legacy-server")], ...patient },
    },
  });
});

describe("a task whose status stays the same longer than timeoutMs", () => {
  it.each(["modern", "legacy"])(
    "%s: is followed to its result while the server answers each poll",
    async (server) => {
      const run = await runCli(
        trustingConfig(["call", "--yes", `${server}/long_job`, '{"steps": 2, "stepMs": 2500}']),
        {
          cwd: dir,
          env: cleanEnv(),
        },
      );
      expect(run.stderr).not.toMatch(/did not answer within/);
      expect(run.stdout).toBe("job done after 2 steps\n");
      expect(run.code).toBe(0);
    },
  );
});
