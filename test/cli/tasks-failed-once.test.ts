import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/**
 * A task that ran and failed is the end of its call: whatever error code the task's failure
 * carries, mcpterm must not send the tools/call again (a second run of a tool the person approved
 * once). The server here is raw JSON-RPC over stdio (2026): it answers `job` with a task whose
 * tasks/get says failed with the code it is given: -32020 (the code mcpterm resends a rejected
 * call on) or -32602 (which would blame the call's arguments, exit 2), and appends one line to
 * its log for each tools/call it receives.
 */
const SERVER = String.raw`
import readline from "node:readline";
import { appendFileSync } from "node:fs";
const log = process.argv[2];
const code = Number(process.argv[3]);
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
      appendFileSync(log, "tools/call\n");
      if (process.argv[3] === "badstatus")
        return send({ jsonrpc: "2.0", id: m.id, result: { resultType: "task", ...task, status: "running" } });
      return send({ jsonrpc: "2.0", id: m.id, result: { resultType: "task", ...task, status: "working" } });
    case "tasks/get":
      if (process.argv[3] === "empty") return ok({ ...task, status: "completed" });
      return ok({ ...task, status: "failed", error: { code, message: "the job failed" } });
    default:
      if (m.id !== undefined) ok({});
  }
});
`;

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(path.join(dir, "server.mjs"), SERVER);
  const server = (code: number) => ({
    command: process.execPath,
    args: [path.join(dir, "server.mjs"), path.join(dir, `calls${code}.log`), String(code)],
  });
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      header: server(-32020),
      params: server(-32602),
      empty: {
        command: process.execPath,
        args: [path.join(dir, "server.mjs"), path.join(dir, "empty.log"), "empty"],
      },
      badstatus: {
        command: process.execPath,
        args: [path.join(dir, "server.mjs"), path.join(dir, "badstatus.log"), "badstatus"],
      },
    },
  });
});

describe("a task that failed", () => {
  it.each([
    ["header", -32020],
    ["params", -32602],
  ])("ends its call (%s, %i): the tools/call is sent once, and fails as the task's", async (name, code) => {
    const run = await runCli(trustingConfig(["call", "--yes", `${name}/job`, "{}"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    // The task's own code, not the one mcpterm hands its SDK for the call, nor what it keeps there.
    expect(run.stderr).toContain(`task t1 of server "${name}" failed: the job failed (code ${code})`);
    expect(run.stderr).not.toMatch(/JSON-RPC error|mcpterm\/taskError/);
    expect(run.code).toBe(1);
    expect(await readFile(path.join(dir, `calls${code}.log`), "utf8")).toBe("tools/call\n");
    const json = await runCli(trustingConfig(["call", "--yes", "--json", `${name}/job`, "{}"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(json.stdout).not.toMatch(/jsonRpcError|-32603|taskError/);
  });

  it("with a status the extension does not define is told by that field, not as a result type", async () => {
    const run = await runCli(trustingConfig(["call", "--yes", "badstatus/job", "{}"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.stderr).toContain(
      'its tools/call answer is a task (resultType "task"), but its status "running" is not one of working, input_required, completed, failed, cancelled',
    );
    expect(run.stderr).not.toContain("Unsupported result type");
  });

  it("completed with no result is the server breaking the protocol, with no code made up", async () => {
    const run = await runCli(trustingConfig(["call", "--yes", "empty/job", "{}"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.stderr).toContain(
      'task t1 of server "empty" failed: its tasks/get answer says completed but carries no result, which breaks the MCP protocol',
    );
    expect(run.stderr).not.toMatch(/code -32603|JSON-RPC error/);
  });
});
