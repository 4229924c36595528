import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * On 2025-11-25 a server answers a tools/call with a task only if the request asked for one
 * (`params.task`); it must not otherwise. This raw JSON-RPC server (2025) answers a plain tool's
 * call with a task anyway, and would complete it if asked: mcpterm must not follow it, and says
 * the server broke the protocol. The server logs each method it receives.
 */
const SERVER = String.raw`
import readline from "node:readline";
import { appendFileSync } from "node:fs";
const log = process.argv[2];
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const task = { taskId: "t1", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttl: 60000, pollInterval: 50 };
const done = { content: [{ type: "text", text: "followed an unasked task" }] };
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  appendFileSync(log, m.method + "\n");
  const ok = (result) => send({ jsonrpc: "2.0", id: m.id, result });
  switch (m.method) {
    case "initialize":
      return ok({ protocolVersion: "2025-11-25", serverInfo: { name: "raw", version: "1" }, capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } }, cancel: {} } } });
    case "server/discover":
      return send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "unknown method" } });
    case "tools/list":
      return ok({ tools: [{ name: "plain", description: "a plain tool", inputSchema: { type: "object", properties: {} } }] });
    case "tools/call":
      return ok({ task });
    case "tasks/get":
      return ok({ ...task, status: "completed" });
    case "tasks/result":
      return ok(done);
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
      raw: { command: process.execPath, args: [path.join(dir, "server.mjs"), path.join(dir, "server.log")] },
    },
  });
});

it("2025: a task in answer to a tools/call that asked for none is a protocol error, not followed", async () => {
  const run = await runCli(trustingConfig(["call", "--yes", "raw/plain", "{}"]), {
    cwd: dir,
    env: cleanEnv(),
  });
  expect(run.stdout).toBe("");
  expect(run.stderr).toMatch(/server "raw" broke the MCP protocol/);
  expect(run.code).toBe(1);
  const methods = (await readFile(path.join(dir, "server.log"), "utf8")).split("\n");
  expect(methods.filter((method) => method.startsWith("tasks/"))).toEqual([]);
});
