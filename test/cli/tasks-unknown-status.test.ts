import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * A tasks/get answer for the right task with a status the protocol does not have ("RUNNING") is
 * told as an unknown status, not as an answer about some other task. Raw JSON-RPC server, 2026.
 */
const SERVER = String.raw`
import readline from "node:readline";
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const complete = { resultType: "complete", ttlMs: 0, cacheScope: "private" };
const task = { taskId: "t1", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: 60000, pollIntervalMs: 50 };
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
      return ok({ ...task, status: "RUNNING" });
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
    mcpServers: { raw: { command: process.execPath, args: [path.join(dir, "server.mjs")] } },
  });
});

it("a tasks/get answer with an unknown status says so", async () => {
  const run = await runCli(trustingConfig(["call", "--yes", "raw/job", "{}"]), { cwd: dir, env: cleanEnv() });
  expect(run.stderr).toContain('tasks/get for task t1 answered with an unknown status "RUNNING"');
  expect(run.stderr).not.toContain("did not answer with that task");
  expect(run.code).toBe(1);
});
