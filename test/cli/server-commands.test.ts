import { randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EVERYTHING_SERVER, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";
import { brokenLaunch } from "../trace/support.js";

const marker = randomUUID();
let dir: string;
let notes: string;

beforeAll(async () => {
  dir = await tempDir();
  notes = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      fixture: { ...fixtureLaunch(marker), env: { FIXTURE_NOTES_DIR: notes } },
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] },
      broken: { command: "no-such-mcp-server-command" },
      misbehaving: brokenLaunch(marker, { BROKEN_STDOUT_NOISE: "0" }),
    },
  });
});

const cli = (...args: string[]) => runInProcess(trustingConfig(args), { cwd: dir, env: cleanEnv() });
/** The real binary, for what only a process shows: its exit code, and stdin that is not a terminal. */
const binary = (...args: string[]) => runCli(trustingConfig(args), { cwd: dir, env: cleanEnv() });

describe("mcpterm tools", () => {
  it("lists every server with its status and each tool with tier and reason, exiting 4 when one failed", async () => {
    const run = await cli("tools");
    expect(run.code).toBe(4);
    expect(run.stdout).toMatch(/^fixture: connected in \d+ ms$/m);
    expect(run.stdout).toMatch(/^ {2}write_note {2}\[dangerous: destructiveHint\]/m);
    expect(run.stdout).toMatch(/^ {2}echo {2}\[read_only: readOnlyHint\]/m);
    expect(run.stdout).toMatch(/^everything: connected/m);
    expect(run.stdout).toMatch(
      /^broken: failed — command "no-such-mcp-server-command" was not found \(ENOENT\)/m,
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("exits 0 for one healthy server and prints JSON on request", async () => {
    const run = await cli("tools", "--server", "fixture", "--json");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      servers: Array<{ name: string; status: string; tools: Array<{ name: string; tier: string }> }>;
    };
    expect(report.servers).toHaveLength(1);
    expect(report.servers[0]?.tools.find((tool) => tool.name === "echo")).toMatchObject({
      tier: "read_only",
    });
  });

  it("exits 2 for a server name that is not in the config", async () => {
    const run = await cli("tools", "--server", "nope");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /There is no server named "nope" .*servers: fixture, everything, broken, misbehaving/,
    );
  });

  it("says a folder has no config, when a server is named where there is none", async () => {
    const empty = await tempDir();
    for (const words of [
      ["call", "fixture/echo"],
      ["read", "fixture", "x://y"],
      ["tools", "--server", "fixture"],
    ]) {
      const run = await runCli(words, { cwd: empty, env: cleanEnv() });
      expect(run.code, words.join(" ")).toBe(2);
      expect(run.stderr).toBe(
        'mcpterm: There is no server named "fixture": this folder has no mcp.config.json; run mcpterm from the project\'s folder, or name its config with --config.\n',
      );
    }
  });
});

describe("mcpterm call", () => {
  it("shows the server's progress on stderr as it comes, and only the result on stdout", async () => {
    const run = await cli(
      "call",
      "--yes",
      "everything/trigger-long-running-operation",
      '{"duration": 0.3, "steps": 3}',
    );
    expect(run.code).toBe(0);
    // The last notification may race the result, after which the SDK drops it.
    expect(run.stderr).toMatch(/^progress 1\/3 \(33 %\)\nprogress 2\/3 \(67 %\)\n/);
    expect(run.stdout).not.toContain("progress");
  });

  it("prints the result and exits 0", async () => {
    const run = await cli("call", "fixture/sum", '{"a": 2, "b": 40}');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("42\n");
    expect(run.stderr).toMatch(/^\d+ ms\n$/);
  });

  it("exits 1 when the tool reports isError", async () => {
    const run = await cli("call", "fixture/fail", "--json");
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      isError: true,
      result: { isError: true, content: [{ type: "text", text: "the record does not exist" }] },
    });
  });

  it("with --json, reports the server's result whole under result, and mcpterm's facts beside it", async () => {
    const run = await cli("call", "everything/get-structured-content", '{"location": "Chicago"}', "--json");
    expect(run.code).toBe(0);
    const weather = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    // outputSchemaProblems: the tool declares an outputSchema, and its result kept it.
    expect(Object.keys(report)).toEqual([
      "server",
      "tool",
      "isError",
      "durationMs",
      "result",
      "outputSchemaProblems",
    ]);
    expect(report.outputSchemaProblems).toEqual([]);
    expect(report).toMatchObject({ server: "everything", tool: "get-structured-content", isError: false });
    expect(report.durationMs).toEqual(expect.any(Number));
    // Exactly what the server sent: no isError it did not send, no durationMs.
    expect(report.result).toEqual({
      content: [{ type: "text", text: JSON.stringify(weather) }],
      structuredContent: weather,
    });
  });

  it("exits 2 for arguments that are not JSON, or that the server rejects", async () => {
    const notJson = await cli("call", "fixture/sum", "{a: 1}");
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/not a JSON object/);
    const wrongType = await cli("call", "fixture/sum", '{"a": "one", "b": 2}');
    expect(wrongType.code).toBe(2);
    expect(wrongType.stderr).toMatch(/do not match the input schema of fixture\/sum: .*a.*must be number/);
  });

  it("exits 1 when the tool does not answer within --timeout: the server was reached (4 is for one that was not)", async () => {
    const run = await cli("call", "fixture/slow", '{"ms": 60000}', "--timeout", "100");
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('mcpterm: server "fixture" did not answer within 100 ms\n');
    expect(run.stdout).toBe("");
  });

  it("says a server's -32602 error once, not with the code twice", async () => {
    const run = await cli("call", "misbehaving/get_weather", "{}");
    expect(run.code).toBe(2);
    // The v2 SDK sends the message alone (v1 put "MCP error -32602:" in it): still said once.
    expect(run.stderr).toBe("mcpterm: get_weather needs a city (JSON-RPC error -32602)\n");
  });

  it("exits 3 for a dangerous tool without --yes when nobody is at a terminal, and runs it with --yes", async () => {
    const denied = await binary("call", "fixture/write_note", '{"name": "a.md", "text": "x"}');
    expect(denied.code).toBe(3);
    expect(denied.stderr).toMatch(/write_note is dangerous; pass --yes\./);
    expect(await readdir(notes)).toEqual([]);

    const allowed = await cli("call", "fixture/write_note", '{"name": "a.md", "text": "x"}', "--yes");
    expect(allowed.code).toBe(0);
    expect(await readdir(notes)).toEqual(["a.md"]);
  });

  it("exits 3 when the arguments hold a secret, even with --yes, unless --allow-secret-arguments is given", async () => {
    const args = JSON.stringify({ name: "b.md", text: `key ${FAKE_OPENAI_KEY}` });
    const denied = await binary("call", "fixture/write_note", args, "--yes");
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain(
      "Not run: fixture/write_note: its arguments hold a secret (text (openai-api-key)); pass --allow-secret-arguments.",
    );
    expect(denied.stderr).not.toContain(FAKE_OPENAI_KEY);
    expect(await readdir(notes)).not.toContain("b.md");
    const allowed = await cli("call", "fixture/write_note", args, "--yes", "--allow-secret-arguments");
    expect(allowed.code).toBe(0);
    expect(await readdir(notes)).toContain("b.md");
  });

  it("exits 4 when the server cannot be started", async () => {
    const run = await binary("call", "broken/anything");
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(
      /^mcpterm: Server "broken" could not be started: command "no-such-mcp-server-command" was not found/,
    );
  });
});
