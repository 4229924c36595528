import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/**
 * The two fixtures with the same tools, one speaking only 2026-07-28 (answers server/discover,
 * refuses initialize), the other only 2025-11-25, through the real binary: tools, call and a
 * one-shot turn.
 */
let dir: string;
const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

beforeAll(async () => {
  dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      modern: { command: process.execPath, args: [compiledFixture("modern-server")] },
      legacy: { command: process.execPath, args: [compiledFixture("legacy-server")] },
    },
  });
});

const cli = (args: string[], cwd = dir) => runCli(trustingConfig(args), { cwd, env: cleanEnv() });

interface ServerJson {
  name: string;
  status: string;
  era?: string;
  protocolVersion?: string;
  tools: Array<{ name: string }>;
}

describe("mcpterm tools with a 2026-only and a 2025-only server", () => {
  it("shows the time a tool list is kept as mcpterm keeps it: at most a day", async () => {
    const pinned = await tempDir();
    await writeJson(path.join(pinned, "mcp.config.json"), {
      mcpServers: {
        modern: {
          command: process.execPath,
          args: [compiledFixture("modern-server")],
          env: { FIXTURE_CACHE_TTL_MS: "9000000000000000" },
        },
      },
    });
    const text = await cli(["tools"], pinned);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      "tools/list kept 86400000 ms (public; the server asked for 9000000000000000, a day at most is kept)",
    );
  });

  it("shows each server's era and revision, in text and in --json", async () => {
    const text = await cli(["tools"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^modern: connected.*\n {2}\(server modern-fixture 2\.0\.0, protocol 2026-07-28 \(modern\)/m,
    );
    expect(text.stdout).toMatch(
      /^legacy: connected.*\n {2}\(server legacy-fixture 1\.0\.0, protocol 2025-11-25 \(legacy\)/m,
    );

    const json = await cli(["tools", "--json"]);
    const servers = (JSON.parse(json.stdout) as { servers: ServerJson[] }).servers;
    expect(servers.find((server) => server.name === "modern")).toMatchObject({
      status: "connected",
      era: "modern",
      protocolVersion: "2026-07-28",
    });
    expect(servers.find((server) => server.name === "legacy")).toMatchObject({
      status: "connected",
      era: "legacy",
      protocolVersion: "2025-11-25",
    });
    for (const server of servers)
      expect(server.tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(["echo", "confirm_action"]),
      );
  });

  it("--protocol pins one revision: the server that does not speak it fails with why", async () => {
    const pinned = await cli(["tools", "--json", "--protocol", "2025-11-25"]);
    const servers = (JSON.parse(pinned.stdout) as { servers: Array<ServerJson & { error?: string }> })
      .servers;
    expect(servers.find((server) => server.name === "legacy")).toMatchObject({ status: "connected" });
    expect(servers.find((server) => server.name === "modern")).toMatchObject({ status: "failed" });
  });

  it('the entry\'s "protocol" pins it for that server alone; a bad value is a config error (exit 2)', async () => {
    const pinnedDir = await tempDir();
    await writeJson(path.join(pinnedDir, "mcp.config.json"), {
      mcpServers: {
        legacy: {
          command: process.execPath,
          args: [compiledFixture("legacy-server")],
          protocol: "2026-07-28",
        },
      },
    });
    const pinned = await cli(["tools"], pinnedDir);
    expect(pinned.stdout).toMatch(/^legacy: failed.*pinned protocol version 2026-07-28/m);
    await writeJson(path.join(pinnedDir, "mcp.config.json"), {
      mcpServers: { legacy: { command: process.execPath, args: [], protocol: "2024" } },
    });
    const bad = await cli(["tools"], pinnedDir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/protocol/);
  });
});

describe("mcpterm call on either era", () => {
  it.each(["modern", "legacy"])("calls %s/echo", async (server) => {
    const run = await cli(["call", `${server}/echo`, '{"text":"hello"}', "--json"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("hello");
  });
});

describe("a one-shot turn whose tool asks a question", () => {
  it.each([
    ["modern", "input_required inside the answer"],
    ["legacy", "a 2025 server request"],
  ])("on %s (%s): declined, the tool goes on, and the trace has the round", async (server) => {
    const model = await startScriptedModelServer((request) => {
      const body = request.body as { messages: Array<{ role: string }> };
      if (body.messages.some((message) => message.role === "tool")) return { text: "done" };
      return {
        toolCalls: [{ id: "c1", name: `${server}__confirm_action`, arguments: '{"action":"deploy"}' }],
      };
    });
    models.push(model);
    const trace = path.join(dir, `${server}.jsonl`);
    const run = await cli([
      "-p",
      "deploy it",
      "--trust-config",
      "--yes",
      "--model",
      "m",
      "--base-url",
      model.baseUrl,
      "--trace",
      trace,
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Declined a request for input from server "${server}"`);
    const toolMessage = (
      model.requests[1]?.body as { messages: Array<{ role: string; content: string }> }
    ).messages.find((message) => message.role === "tool");
    expect(toolMessage?.content).toContain("deploy: declined");
    const records = (await readFile(trace, "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toContainEqual(expect.objectContaining({ type: "elicitation", action: "decline" }));
    const servers = records.find((record) => record.type === "servers")?.servers as ServerJson[];
    expect(servers.find((entry) => entry.name === server)?.era).toBe(server);
    if (server === "modern") {
      const tree = await cli(["trace", trace]);
      expect(tree.stdout).toContain(
        "input required from modern, round 1 of tools/call confirm_action: asks confirm (elicitation/create)",
      );
      expect(records).toContainEqual(
        expect.objectContaining({
          type: "input_round",
          server,
          method: "tools/call",
          name: "confirm_action",
          round: 1,
          asks: [{ key: "confirm", method: "elicitation/create" }],
        }),
      );
    }
  });
});

describe("a one-shot turn whose tool asks to use the model", () => {
  it.each([
    ["modern", "input_required inside the answer"],
    ["legacy", "a 2025 server request"],
  ])("on %s (%s): declined, and the model never gets the server's question", async (server) => {
    const model = await startScriptedModelServer((request) => {
      const body = request.body as { messages: Array<{ role: string }> };
      if (body.messages.some((message) => message.role === "tool")) return { text: "done" };
      return {
        toolCalls: [{ id: "c1", name: `${server}__ask_model`, arguments: '{"question":"the answer?"}' }],
      };
    });
    models.push(model);
    const run = await cli([
      "-p",
      "ask it",
      "--trust-config",
      "--yes",
      "--model",
      "m",
      "--base-url",
      model.baseUrl,
    ]);
    expect(run.stderr).toContain(
      `Declined a sampling request from server "${server}": nobody is there to answer it; pass --allow-sampling`,
    );
    // Two requests only (the turn and its answer): the sampling request never reached the model.
    expect(model.requests).toHaveLength(2);
    const toolMessage = (
      model.requests[1]?.body as { messages: Array<{ role: string; content: string }> }
    ).messages.find((message) => message.role === "tool");
    expect(toolMessage?.content).not.toContain("the model said");
    expect(run.stdout).toContain("done");
  });
});

describe("mcpterm call of a tool that asks a question, with nobody to answer", () => {
  it.each(["modern", "legacy"])("on %s: the question is declined and the tool says so", async (server) => {
    const run = await cli(["call", `${server}/confirm_action`, '{"action":"deploy"}', "--yes"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("deploy: declined\n");
    // Said once on stderr, in one-shot mode's words; no progress line of the SDK's own making.
    expect(run.stderr).toContain(
      `warning: Declined a request for input from server "${server}": nobody is there to answer it.\n`,
    );
    expect(run.stderr).not.toContain("Fulfilling input required");
  });
});
