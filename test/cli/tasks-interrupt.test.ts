import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * Ctrl+C on `mcpterm call` while the tool runs as a task: the server must hear tasks/cancel
 * before mcpterm closes the connection, and stderr says "tasks/cancel sent" only once it was.
 * Two servers: the modern fixture (an SDK server, which appends each cancelled task's id to a
 * file), and a raw JSON-RPC one that exits as soon as its stdin closes, as a small server may,
 * so a tasks/cancel written after the close is never read.
 */
const RAW_SERVER = String.raw`
import readline from "node:readline";
import { appendFileSync } from "node:fs";
const log = process.argv[2];
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const complete = { resultType: "complete", ttlMs: 0, cacheScope: "private" };
let polls = 0;
const task = () => ({ taskId: "job-1", status: "working", statusMessage: "step " + polls + " of 50", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: 60000, pollIntervalMs: 100 });
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  const ok = (result) => send({ jsonrpc: "2.0", id: m.id, result: { ...complete, ...result } });
  switch (m.method) {
    case "server/discover":
      return ok({ supportedVersions: ["2026-07-28"], capabilities: { tools: {}, extensions: { "io.modelcontextprotocol/tasks": {} } } });
    case "tools/list":
      return ok({ tools: [{ name: "long_job", description: "a job", inputSchema: { type: "object", properties: {} } }] });
    case "tools/call":
      return send({ jsonrpc: "2.0", id: m.id, result: { resultType: "task", ...task() } });
    case "tasks/get":
      polls += 1;
      return ok(task());
    case "tasks/cancel":
      appendFileSync(log, m.params.taskId + "\n");
      return ok({});
    default:
      if (m.id !== undefined) ok({});
  }
});
`;

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(path.join(dir, "raw.mjs"), RAW_SERVER);
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      modern: {
        command: process.execPath,
        args: [compiledFixture("modern-server")],
        env: { FIXTURE_TASK_CANCEL_LOG: path.join(dir, "modern.log") },
      },
      raw: { command: process.execPath, args: [path.join(dir, "raw.mjs"), path.join(dir, "raw.log")] },
    },
  });
});

describe("SIGINT on `mcpterm call` while its task runs", () => {
  it.each(["modern", "raw"])("%s: tasks/cancel reaches the server before mcpterm exits", async (server) => {
    let stderr = "";
    let interrupted = false;
    const run = await runCli(
      trustingConfig(["call", "--yes", `${server}/long_job`, '{"steps": 50, "stepMs": 200}']),
      {
        cwd: dir,
        env: cleanEnv(),
        onSpawn: (child) => {
          child.stderr?.on("data", (chunk: Buffer) => {
            stderr += chunk.toString();
            // A few steps in, while the job is well under way. At or past step 3, not at it: the
            // modern fixture steps as often as it is polled, so a late poll skips a step's status.
            const steps = [...stderr.matchAll(/step (\d+) of 50/g)].map((match) => Number(match[1]));
            if (!interrupted && steps.some((step) => step >= 3)) {
              interrupted = true;
              child.kill("SIGINT");
            }
          });
        },
      },
    );
    expect(run.code).toBe(130);
    expect(await readFile(path.join(dir, `${server}.log`), "utf8")).toBe("job-1\n");
    expect(run.stderr).toContain("task job-1: cancelled: tasks/cancel sent");
  });
});
