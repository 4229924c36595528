import { writeFile } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

describe("a server that closes its stdout and runs on", () => {
  it("fails at once, saying so, not at its startupTimeoutMs, and is stopped", async () => {
    const dir = await tempDir();
    const marker = `stdout-closed-${randomUUID()}`;
    await writeFile(path.join(dir, "closed.mjs"), "process.stdout.end();\nsetInterval(() => {}, 1000);\n");
    await writeJson(path.join(dir, "mcp.config.json"), {
      // A minute to start: the test would time out long before it, were it waited out.
      mcpServers: {
        s: {
          command: process.execPath,
          args: [path.join(dir, "closed.mjs"), marker],
          startupTimeoutMs: 60_000,
        },
      },
    });
    const run = await runCli(trustingConfig(["tools"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(4);
    expect(run.stdout).toContain(
      "s: failed — the server process closed its stdout and runs on, so no answer can come (a wrapper that closed it, or a program writing somewhere else)",
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  }, 20_000);
});
