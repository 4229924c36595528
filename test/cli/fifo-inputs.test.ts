import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * A cloned repository can hold a named pipe where mcpterm reads a file whole: opening it waited
 * for a writer that never came, and neither Ctrl+C nor SIGTERM ended the wait. Each is refused
 * before it is opened, in one sentence (exit 2).
 */
const FIFO = "it is a named pipe (FIFO), not a regular file";

async function projectWithFifo(relative: string): Promise<string> {
  const dir = await tempDir();
  await mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
  execFileSync("mkfifo", [path.join(dir, relative)]);
  return dir;
}

describe("a named pipe where a file is read", () => {
  it("as mcp.config.json", async () => {
    const dir = await projectWithFifo("mcp.config.json");
    const run = await runCli(["tools"], { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`mcpterm: Config file mcp.config.json could not be read: ${FIFO}.\n`);
  });

  it.each([["trace"], ["replay"], ["trace", "--calls"]])(
    "as the newest trace, for mcpterm %s",
    async (...args) => {
      const dir = await projectWithFifo(".mcpterm/traces/20990101-000000-000-eeeeee.jsonl");
      const run = await runCli(args, { cwd: dir, env: cleanEnv() });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(
          `^mcpterm: Cannot read (the trace )?\\S+eeeeee\\.jsonl: ${FIFO.replace(/[()]/g, "\\$&")}\\.\\n$`,
        ),
      );
    },
  );

  it.each(["knowledge_base/.gitignore", ".mcpterm/kb/kb-manifest.json"])(
    "as %s, which kb index reads past instead of waiting forever",
    async (relative) => {
      const dir = await projectWithFifo(relative);
      await mkdir(path.join(dir, "knowledge_base"), { recursive: true });
      await writeFile(path.join(dir, "knowledge_base", "note.md"), "# Rollback\n\nStop traffic first.\n");
      const run = await runCli(["kb", "index"], { cwd: dir, env: cleanEnv() });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Indexed 1 files/);
    },
  );

  it("--config with no file name says so, not that the folder could not be read", async () => {
    const run = await runCli(["tools", "--config", ""], { cwd: await tempDir(), env: cleanEnv() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("mcpterm: --config needs a file name; give the config to use.\n");
  });
});
