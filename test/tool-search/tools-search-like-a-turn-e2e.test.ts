import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, toolCatalogLaunch, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedServerOptions,
} from "../support/scripted-model-server.js";

const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

interface Request {
  tools?: Array<{ function: { name: string } }>;
}
const offeredIn = (request: { body: unknown } | undefined): string[] =>
  ((request?.body as Request | undefined)?.tools ?? []).map((tool) => tool.function.name).sort();

interface SearchResult {
  window: number;
  queries: Array<{ selection: { on: boolean; total: number }; offered: Array<{ name: string }> }>;
}

/** `servers` servers of 20 tools each (five verbs on four things), in `cwd`, as mcpServers entries. */
async function catalogs(cwd: string, subjects: ReadonlyArray<[string, string[]]>) {
  const servers: Record<string, { command: string; args: string[] }> = {};
  for (const [subject, things] of subjects) {
    const tools = things.flatMap((thing) =>
      ["get", "list", "create", "update", "delete"].map((verb) => ({
        name: `${verb}_${thing}`,
        description: `${verb} a ${thing} in ${subject}.`,
      })),
    );
    servers[subject] = toolCatalogLaunch(
      await writeJson(path.join(cwd, `${subject}.catalog.json`), { name: subject, tools }),
    );
  }
  return servers;
}

const SUBJECTS: ReadonlyArray<[string, string[]]> = [
  ["blobstore", ["bucket", "object", "policy", "key"]],
  ["agenda", ["event", "calendar", "reminder", "invite"]],
  ["tunes", ["track", "playlist", "album", "artist"]],
];

async function model(options: ScriptedServerOptions = {}): Promise<ScriptedModelServer> {
  const server = await startScriptedModelServer([{ text: "ok" }], options);
  models.push(server);
  return server;
}

/** The first request of a one-shot turn with `prompt`, and what `tools --search` says of the same words. */
async function both(
  cwd: string,
  prompt: string,
  server: ScriptedModelServer,
): Promise<{ turn: string[]; search: SearchResult }> {
  const env = cleanEnv({ OPENAI_BASE_URL: server.baseUrl, MCPTERM_MODEL: "m" });
  const run = await runCli(["-p", prompt, "--trust-config"], { cwd, env });
  expect(run.code).toBe(0);
  const listed = await runCli(trustingConfig(["tools", "--search", prompt, "--json"]), { cwd, env });
  expect(listed.code).toBe(0);
  return { turn: offeredIn(server.requests.at(-1)), search: JSON.parse(listed.stdout) as SearchResult };
}

describe("mcpterm tools --search offers exactly what a turn offers (the real binary)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir();
  });

  it("with a knowledge base, 60 servers' tools are not more than maxTools: both offer every tool", async () => {
    const cwd = path.join(dir, "kb60");
    await mkdir(path.join(cwd, "knowledge_base"), { recursive: true });
    await writeFile(
      path.join(cwd, "knowledge_base", "notes.md"),
      "# Buckets\n\nOld buckets are deleted on Fridays.\n",
    );
    await writeJson(path.join(cwd, "mcp.config.json"), { mcpServers: await catalogs(cwd, SUBJECTS) });
    const { turn, search } = await both(cwd, "delete a bucket", await model());
    expect(turn).toHaveLength(61);
    expect(turn).toContain("search_knowledge_base");
    expect(turn).not.toContain("search_tools");
    expect(search.queries[0]?.selection).toMatchObject({ on: false, total: 60 });
    expect(search.queries[0]?.offered.map((entry) => entry.name).sort()).toEqual(turn);
  });

  it("one more server tool makes both select, and they offer the same tools", async () => {
    const cwd = path.join(dir, "kb61");
    await mkdir(path.join(cwd, "knowledge_base"), { recursive: true });
    await writeFile(
      path.join(cwd, "knowledge_base", "notes.md"),
      "# Buckets\n\nOld buckets are deleted on Fridays.\n",
    );
    const extra = await writeJson(path.join(cwd, "extra.catalog.json"), {
      name: "extra",
      tools: [{ name: "ping", description: "Checks that the service answers." }],
    });
    await writeJson(path.join(cwd, "mcp.config.json"), {
      mcpServers: { ...(await catalogs(cwd, SUBJECTS)), extra: toolCatalogLaunch(extra) },
    });
    const { turn, search } = await both(cwd, "delete a bucket", await model());
    expect(turn).toContain("search_tools");
    expect(turn).toContain("blobstore__delete_bucket");
    expect(search.queries[0]?.selection).toMatchObject({ on: true, total: 61 });
    expect(search.queries[0]?.offered.map((entry) => entry.name).sort()).toEqual(turn);
  });

  it("selects for the window the endpoint reports, as a turn does", async () => {
    const cwd = path.join(dir, "probe");
    await mkdir(cwd);
    await writeJson(path.join(cwd, "mcp.config.json"), {
      mcpServers: await catalogs(cwd, SUBJECTS.slice(0, 2)),
    });
    // A vLLM server running the model with a 4,096-token window: 40 tools take more than a quarter.
    const server = await model({ models: { data: [{ id: "m", max_model_len: 4096 }] } });
    const { turn, search } = await both(cwd, "delete a bucket", server);
    expect(search.window).toBe(4096);
    expect(search.queries[0]?.selection.on).toBe(true);
    expect(turn).toContain("search_tools");
    expect(search.queries[0]?.offered.map((entry) => entry.name).sort()).toEqual(turn);
  });

  it("remembers the window a session learned, as a session does, when the endpoint is gone", async () => {
    const cwd = path.join(dir, "remembered");
    await mkdir(cwd);
    await writeJson(path.join(cwd, "mcp.config.json"), {
      mcpServers: await catalogs(cwd, SUBJECTS.slice(0, 2)),
    });
    const server = await model({ models: { data: [{ id: "m", max_model_len: 4096 }] } });
    const env = cleanEnv({ OPENAI_BASE_URL: server.baseUrl, MCPTERM_MODEL: "m" });
    expect((await runCli(["-p", "delete a bucket", "--trust-config"], { cwd, env })).code).toBe(0);
    await server.close();
    const listed = await runCli(trustingConfig(["tools", "--search", "delete a bucket", "--json"]), {
      cwd,
      env,
    });
    expect(listed.code).toBe(0);
    const search = JSON.parse(listed.stdout) as SearchResult;
    expect(search.window).toBe(4096);
    expect(search.queries[0]?.selection.on).toBe(true);
  });
});
