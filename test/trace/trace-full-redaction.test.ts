import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UNCHECKED } from "../../src/core/policy/redacted-json.js";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const marker = randomUUID();
const servers: ScriptedModelServer[] = [];
/** A Linear API key's shape: secretlint's preset knows it, mcpterm's own patterns do not. */
const LINEAR_KEY = `lin_api_${"k3Yq9ZrT".repeat(5)}`;

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

describe("the files a session keeps hold no secret that only the full rule set knows", () => {
  it("takes it out of the trace's frames and events and of the saved session, as out of the result", async () => {
    const dir = await tempDir("mcpterm-trace-full-");
    await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { fixture: fixtureLaunch(marker) } });
    const model = await startScriptedModelServer([
      { toolCalls: [{ name: "fixture__echo", arguments: JSON.stringify({ text: `key ${LINEAR_KEY}` }) }] },
      { text: "done" },
    ]);
    servers.push(model);
    const traceFile = path.join(dir, "trace.jsonl");
    const run = await runCli(
      [
        "-p",
        "x",
        "--trust-config",
        "--allow-secret-arguments",
        "--trace",
        traceFile,
        "--model",
        "m",
        "--base-url",
        model.baseUrl,
      ],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code, run.stderr).toBe(0);
    // The progress line on stderr shows the call's arguments: redacted alike.
    expect(run.stderr).toContain("fixture/echo");
    expect(run.stderr).not.toContain(LINEAR_KEY.slice(8));
    const trace = await readFile(traceFile, "utf8");
    expect(trace).toContain('"type":"wire"');
    expect(trace).toContain("[REDACTED]");
    expect(trace).not.toContain(LINEAR_KEY.slice(8));
    expect(trace).not.toContain(UNCHECKED);
    // The saved session holds no more than the trace: the call's arguments are in its history.
    const sessions = path.join(dir, ".mcpterm", "sessions");
    const [saved] = await readdir(sessions);
    const session = await readFile(path.join(sessions, saved ?? "none"), "utf8");
    expect(session).toContain("fixture__echo");
    expect(session).not.toContain(LINEAR_KEY.slice(8));
  });

  it("takes it out of --output stream-json's events too, as a key or a value", async () => {
    const dir = await tempDir("mcpterm-trace-full-json-");
    await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { fixture: fixtureLaunch(marker) } });
    const model = await startScriptedModelServer([
      {
        toolCalls: [
          {
            name: "fixture__echo",
            arguments: JSON.stringify({ text: `key ${LINEAR_KEY}`, [LINEAR_KEY]: 1 }),
          },
        ],
      },
      { text: "done" },
    ]);
    servers.push(model);
    const run = await runCli(
      [
        "-p",
        "x",
        "--trust-config",
        "--allow-secret-arguments",
        "--output",
        "stream-json",
        "--model",
        "m",
        "--base-url",
        model.baseUrl,
      ],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('"type":"tool_call_proposed"');
    expect(run.stdout).toContain("[REDACTED]");
    expect(run.stdout + run.stderr).not.toContain(LINEAR_KEY.slice(8));
  });
});
