import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * A task may ask questions (2026: inputRequests in tasks/get), but not without end: this raw
 * JSON-RPC server asks a new one at every poll. Past ten, mcpterm gives the task up, cancels it
 * (the server logs tasks/cancel), and fails the call with one sentence, long before maxCallMs.
 */
const SERVER = String.raw`
import readline from "node:readline";
import { appendFileSync } from "node:fs";
const log = process.argv[2];
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const complete = { resultType: "complete", ttlMs: 0, cacheScope: "private" };
let polls = 0;
const task = { taskId: "t1", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: 60000, pollIntervalMs: 50 };
const form = (n) => ({ method: "elicitation/create", params: { mode: "form", message: "question " + n, requestedSchema: { type: "object", properties: { a: { type: "string" } } } } });
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
      return ok({ ...task, status: "input_required", inputRequests: { ["k" + polls]: form(polls) } });
    case "tasks/cancel":
      appendFileSync(log, "tasks/cancel " + m.params.taskId + "\n");
      return ok({});
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
      h: {
        command: process.execPath,
        args: [path.join(dir, "server.mjs"), path.join(dir, "server.log")],
        maxCallMs: 10_000,
      },
    },
  });
});

it("a task that keeps asking new questions is cancelled after ten, and the call fails saying why", async () => {
  const run = await runCli(trustingConfig(["call", "--yes", "h/job", "{}"]), { cwd: dir, env: cleanEnv() });
  expect(run.stderr).toContain("the task asked more than 10 questions, so it was cancelled");
  expect(run.stderr.match(/Declined a request for input/g)?.length ?? 0).toBeLessThanOrEqual(10);
  expect(run.code).toBe(1);
  expect(await readFile(path.join(dir, "server.log"), "utf8")).toBe("tasks/cancel t1\n");
});
