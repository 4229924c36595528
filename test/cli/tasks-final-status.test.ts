import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * A task's final status is told once, as the call ended: a 2026 task that says `completed` but
 * carries no result failed (never `completed` then `failed`), and a 2025 task's result from
 * tasks/result is not shown with the last poll's stale message. Raw JSON-RPC servers, one per era.
 */
const SERVER = String.raw`
import readline from "node:readline";
const legacy = process.argv[2] === "legacy";
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const complete = legacy ? {} : { resultType: "complete", ttlMs: 0, cacheScope: "private" };
const task = { taskId: "t1", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttl: 60000, ttlMs: 60000, pollInterval: 50, pollIntervalMs: 50 };
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  const ok = (result) => send({ jsonrpc: "2.0", id: m.id, result: { ...complete, ...result } });
  const job = { name: "job", description: "a job", inputSchema: { type: "object", properties: {} }, execution: { taskSupport: "required" } };
  switch (m.method) {
    case "initialize":
      return ok({ protocolVersion: "2025-11-25", serverInfo: { name: "raw", version: "1" }, capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } }, cancel: {} } } });
    case "server/discover":
      if (legacy) return send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "unknown method" } });
      return ok({ supportedVersions: ["2026-07-28"], capabilities: { tools: {}, extensions: { "io.modelcontextprotocol/tasks": {} } } });
    case "tools/list":
      return ok({ tools: [job] });
    case "tools/call":
      if (legacy) return ok({ task: { ...task, status: "working", statusMessage: "step 1 of 2" } });
      return send({ jsonrpc: "2.0", id: m.id, result: { resultType: "task", ...task, status: "working" } });
    case "tasks/get":
      if (legacy) return ok({ ...task, status: "working", statusMessage: "step 1 of 2" });
      return ok({ ...task, status: "completed", statusMessage: "all done" });
    case "tasks/result":
      return setTimeout(() => ok({ content: [{ type: "text", text: "the result" }] }), 300);
    default:
      if (m.id !== undefined) ok({});
  }
});
`;

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(path.join(dir, "server.mjs"), SERVER);
  const server = (era: string) => ({ command: process.execPath, args: [path.join(dir, "server.mjs"), era] });
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { modern: server("modern"), legacy: server("legacy") },
  });
});

it("2026: a task `completed` without a result is told as failed alone", async () => {
  const run = await runCli(trustingConfig(["call", "--yes", "modern/job", "{}"]), {
    cwd: dir,
    env: cleanEnv(),
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(
    /^task t1: failed: its tasks\/get answer says completed but carries no result, which breaks the MCP protocol$/m,
  );
  expect(run.stderr).not.toMatch(/^task t1: completed/m);
});

it("2025: a result from tasks/result shows `completed` without the last poll's message", async () => {
  const run = await runCli(trustingConfig(["call", "--yes", "legacy/job", "{}"]), {
    cwd: dir,
    env: cleanEnv(),
  });
  expect(run.stdout).toBe("the result\n");
  expect(run.stderr).toMatch(/^task t1: completed$/m);
  expect(run.code).toBe(0);
});
