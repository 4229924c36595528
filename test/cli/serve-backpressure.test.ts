import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { cleanEnv } from "../support/run-cli.js";

/** How many requests the client tries to send; far more than a blocked stdout lets serve read. */
const REQUESTS = 30_000;

describe("mcpterm serve with a client that never reads its answers", () => {
  it("stops reading requests while its answers wait, instead of buffering them without end", async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, "knowledge_base"));
    await writeFile(
      path.join(dir, "knowledge_base", "notes.md"),
      "# Notes\n\nBuckets are deleted on Fridays.\n",
    );
    const child = spawn(process.execPath, [CLI, "serve"], { cwd: dir, env: cleanEnv(), stdio: "pipe" });
    // stdout is never read: the pipe fills, and serve must stop taking requests.
    child.stdout.pause();
    // The requests still buffered when serve is killed at the end fail to write: expected.
    child.stdin.on("error", () => undefined);
    try {
      const hello = {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      };
      child.stdin.write(`${JSON.stringify(hello)}\n`);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
      let sent = 0;
      // Writes while serve drains its stdin; stops once stdin has stayed full for a while.
      while (sent < REQUESTS) {
        const line = `${JSON.stringify({ jsonrpc: "2.0", id: sent + 1, method: "tools/list" })}\n`;
        sent += 1;
        if (child.stdin.write(line)) continue;
        const drained = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), 2_000);
          child.stdin.once("drain", () => {
            clearTimeout(timer);
            resolve(true);
          });
        });
        if (!drained) break;
      }
      expect(sent).toBeLessThan(REQUESTS);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill("SIGKILL");
    }
  });
});
