import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * A server may ask for a poll pace (pollIntervalMs, here 10 s) slower than the call's silence
 * limit (timeoutMs, here 1 s). mcpterm polls within the limit anyway, so the task is not
 * cancelled before its first tasks/get. Raw JSON-RPC server (2026) whose task completes at the
 * third poll.
 */
const SERVER = String.raw`
import readline from "node:readline";
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const complete = { resultType: "complete", ttlMs: 0, cacheScope: "private" };
const task = { taskId: "t1", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: 60000, pollIntervalMs: 10000 };
let polls = 0;
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  const ok = (result) => send({ jsonrpc: "2.0", id: m.id, result: { ...complete, ...result } });
  switch (m.method) {
    case "server/discover":
      return ok({ supportedVersions: ["2026-07-28"], capabilities: { tools: {}, extensions: { "io.modelcontextprotocol/tasks": {} } } });
    case "tools/list":
      return ok({ tools: [{ name: "job", description: "a job", inputSchema: { type: "object", properties: {} } }] });
    case "tools/call":
      return send({ jsonrpc: "2.0", id: m.id, result: { resultType: "task", ...task, status: "working" } });
    case "tasks/get":
      polls += 1;
      if (polls < 3) return ok({ ...task, status: "working" });
      return ok({ ...task, status: "completed", result: { content: [{ type: "text", text: "done at poll " + polls }] } });
    default:
      if (m.id !== undefined) ok({});
  }
});
`;

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(path.join(dir, "server.mjs"), SERVER);
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      raw: {
        command: process.execPath,
        args: [path.join(dir, "server.mjs")],
        timeoutMs: 1000,
        maxCallMs: 60_000,
      },
    },
  });
});

it("a pollIntervalMs longer than timeoutMs: the task is polled within the limit and followed", async () => {
  const run = await runCli(trustingConfig(["call", "--yes", "raw/job", "{}"]), { cwd: dir, env: cleanEnv() });
  expect(run.stderr).not.toMatch(/did not answer within/);
  expect(run.stdout).toBe("done at poll 3\n");
  expect(run.code).toBe(0);
});
