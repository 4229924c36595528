import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * 2025: past maxCallMs mcpterm stops waiting on tasks/result, and the SDK tells the server with
 * notifications/cancelled. Its reason is for the server's logs: words, not an internal Symbol.
 * Raw JSON-RPC server that never answers tasks/result and logs each cancellation's reason.
 */
const SERVER = String.raw`
import readline from "node:readline";
import { appendFileSync } from "node:fs";
const log = process.argv[2];
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const task = { taskId: "t1", status: "working", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttl: 60000, pollInterval: 100 };
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  const ok = (result) => send({ jsonrpc: "2.0", id: m.id, result });
  switch (m.method) {
    case "initialize":
      return ok({ protocolVersion: "2025-11-25", serverInfo: { name: "raw", version: "1" }, capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } }, cancel: {} } } });
    case "server/discover":
      return send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "unknown method" } });
    case "tools/list":
      return ok({ tools: [{ name: "job", description: "a job", inputSchema: { type: "object", properties: {} }, execution: { taskSupport: "required" } }] });
    case "tools/call":
      return ok({ task });
    case "tasks/get":
      return ok(task);
    case "tasks/result":
      return;
    case "notifications/cancelled":
      return appendFileSync(log, String(m.params?.reason) + "\n");
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
        args: [path.join(dir, "server.mjs"), path.join(dir, "cancelled.log")],
        timeoutMs: 1000,
        maxCallMs: 1000,
      },
    },
  });
});

it("2025: the notifications/cancelled for tasks/result gives a reason in words", async () => {
  const run = await runCli(trustingConfig(["call", "--yes", "raw/job", "{}"]), { cwd: dir, env: cleanEnv() });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/stopped after 1000 ms/);
  expect(await readFile(path.join(dir, "cancelled.log"), "utf8")).toBe(
    "the client stopped waiting for the task's result; tasks/cancel follows\n",
  );
});
