/**
 * Tool search quality and request size (issue 30), beside plain BM25 measured in the same run.
 *
 *   npm run bench -- tool-search           both parts
 *   npx tsx bench/tool-search-eval.ts --catalog-only     the MetaTool ranking only (seconds)
 *   TOOL_SEARCH_DATA=/path/to/metatool ...               another copy of the collection
 *
 * 1. MetaTool (shared/data/tool-search/metatool: 199 tools, 2,000 single-tool and 497 two-tool
 *    requests): each request ranked as the first step of a turn with that message ranks the
 *    tools (ToolSearch.rank over conversationQuery), and selected as it selects them
 *    (ToolSearch.select with the default settings and window). Recall@k is the share of a
 *    request's needed tools among the first k, averaged over requests (a two-tool request with
 *    one of its two found counts 0.5; "both" counts only requests with both). The floor is plain
 *    BM25: minisearch over name + description, identifiers split, nothing else.
 * 2. A large configuration of real servers, run through the built binary: server-everything and
 *    server-filesystem ten times each under other names, mcpterm's fetch server, and the MetaTool
 *    catalog served by ten stdio servers (test/fixtures/tool-catalog-server.ts). `mcpterm tools
 *    --search` ranks a sample of the MetaTool requests in one run (are the needed tools offered?),
 *    and a one-shot turn's first request is measured with tools.search on (the default) and off.
 *
 * Writes bench/results/tool-search.json; prints its own tables. A measurement, not a test.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import MiniSearch from "minisearch";
import { DEFAULT_TOOL_SEARCH } from "../src/core/config/tool-search-settings.js";
import { DEFAULT_CONTEXT_WINDOW } from "../src/core/llm/context-probe.js";
import {
  conversationQuery,
  SEARCH_TOOLS_DESCRIPTION,
  SEARCH_TOOLS_NAME,
  SEARCH_TOOLS_SCHEMA,
  ToolSearch,
  type SearchableTool,
} from "../src/core/tool-search/index.js";
import { estimateTextTokens, estimateToolTokens } from "../src/core/window/token-estimate.js";
import { compileFixtures, compiledFixture } from "../test/support/compiled-fixtures.js";
import { startScriptedModelServer } from "../test/support/scripted-model-server.js";
import { ensureBuilt } from "./lib/build.js";
import { REPO_ROOT, resultsDir } from "./lib/suite.js";

interface CatalogTool {
  name: string;
  description: string;
}
interface Request {
  id: string;
  query: string;
  tools: string[];
}

const DATA = process.env.TOOL_SEARCH_DATA ?? path.resolve(REPO_ROOT, "../shared/data/tool-search/metatool");
const catalogOnly = process.argv.includes("--catalog-only");
/** Requests of each kind sent through the big configuration's `tools --search` (a seeded sample). */
const SAMPLE = { single: 300, multi: 100 };
/** One-shot turns measured for the request size, with and without selection. */
const SIZE_TURNS = 5;
const CLI = path.join(REPO_ROOT, "dist/cli.js");

const catalog = JSON.parse(readFileSync(path.join(DATA, "tools.json"), "utf8")) as CatalogTool[];
const load = (file: string): Request[] =>
  readFileSync(path.join(DATA, file), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Request);
const single = load("queries.jsonl");
const multi = load("multi-queries.jsonl");

// ---- 1. MetaTool, in process ---------------------------------------------------------------

interface Recall {
  at5: number;
  at10: number;
  /** Requests with every needed tool among the first 5 / 10. */
  all5: number;
  all10: number;
}

function recall(requests: readonly Request[], rank: (query: string) => string[]): Recall {
  const sums = { at5: 0, at10: 0, all5: 0, all10: 0 };
  for (const request of requests) {
    const ranked = rank(request.query);
    for (const k of [5, 10] as const) {
      const top = ranked.slice(0, k);
      const found = request.tools.filter((tool) => top.includes(tool)).length;
      sums[`at${k}`] += found / request.tools.length;
      if (found === request.tools.length) sums[`all${k}`] += 1;
    }
  }
  const n = Math.max(1, requests.length);
  return { at5: sums.at5 / n, at10: sums.at10 / n, all5: sums.all5 / n, all10: sums.all10 / n };
}

/** The floor: minisearch's BM25 over name and description, identifiers split, no stemming or stop words. */
function plainBm25(): (query: string) => string[] {
  const tokenize = (text: string): string[] =>
    text
      .split(/[^\p{L}\p{N}]+/u)
      .flatMap((word) =>
        word
          .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
          .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
          .split(" "),
      )
      .filter((word) => word !== "");
  const index = new MiniSearch<{ id: number; name: string; description: string }>({
    fields: ["name", "description"],
    storeFields: ["name"],
    tokenize,
  });
  index.addAll(catalog.map((tool, id) => ({ id, ...tool })));
  return (query) => index.search(query).map((hit) => String(hit.name));
}

function searchable(tool: CatalogTool): SearchableTool {
  return {
    modelName: tool.name.replace(/[^a-zA-Z0-9_-]/g, "_"),
    server: "metatool",
    name: tool.name,
    modelDescription: tool.description,
    modelInputSchema: { type: "object", properties: {} },
  };
}

const SEARCH_TOOL: SearchableTool = {
  modelName: SEARCH_TOOLS_NAME,
  server: "mcpterm",
  name: SEARCH_TOOLS_NAME,
  modelDescription: SEARCH_TOOLS_DESCRIPTION,
  modelInputSchema: SEARCH_TOOLS_SCHEMA,
};

function tokensOf(tool: SearchableTool): number {
  return estimateToolTokens([
    { name: tool.modelName, description: tool.modelDescription, parameters: tool.modelInputSchema },
  ]);
}

async function metatool(): Promise<Record<string, unknown>> {
  const tools = catalog.map(searchable);
  const search = new ToolSearch();
  const ours = async (query: string): Promise<string[]> =>
    (await search.rank(tools, conversationQuery(query, [{ role: "user", content: query }]))).map(
      (entry) => entry.tool.name,
    );
  // Ranked once each: recall() wants a synchronous ranking.
  const rankedOurs = new Map<string, string[]>();
  for (const request of [...single, ...multi]) rankedOurs.set(request.query, await ours(request.query));
  const floor = plainBm25();
  const rows = {
    single: { ours: recall(single, (q) => rankedOurs.get(q) ?? []), floor: recall(single, floor) },
    multi: { ours: recall(multi, (q) => rankedOurs.get(q) ?? []), floor: recall(multi, floor) },
  };

  // What one request offers, as a turn selects it: share of the whole list's estimated tokens.
  const all = [SEARCH_TOOL, ...tools];
  const fullTokens = tools.reduce((sum, tool) => sum + tokensOf(tool), 0);
  let shareSum = 0;
  let offeredSum = 0;
  let neededOffered = 0;
  let needed = 0;
  for (const request of [...single, ...multi]) {
    const view = await search.select({
      tools: all,
      always: (tool) => tool.server === "mcpterm",
      input: request.query,
      conversation: [{ role: "user", content: request.query }],
      window: DEFAULT_CONTEXT_WINDOW,
      size: tokensOf,
      listSize: (list) => list.reduce((sum, tool) => sum + tokensOf(tool), 0),
    });
    const offered = view.offered.map((entry) => entry.tool);
    shareSum += offered.reduce((sum, tool) => sum + tokensOf(tool), 0) / fullTokens;
    offeredSum += offered.length;
    const names = new Set(offered.map((tool) => tool.name));
    needed += request.tools.length;
    neededOffered += request.tools.filter((tool) => names.has(tool)).length;
  }
  const requests = single.length + multi.length;
  const offered = {
    tools: offeredSum / requests,
    share: shareSum / requests,
    neededOffered: neededOffered / needed,
    fullTokens,
  };

  const f = (value: number): string => value.toFixed(3);
  console.log(
    `\nMetaTool: ${catalog.length} tools, ${single.length} single-tool and ${multi.length} two-tool requests`,
  );
  console.log("| requests | mcpterm R@5 | mcpterm R@10 | plain BM25 R@5 | plain BM25 R@10 | gain at 5 |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [label, row] of [
    ["single-tool", rows.single],
    ["two-tool", rows.multi],
  ] as const)
    console.log(
      `| ${label} | ${f(row.ours.at5)} | ${f(row.ours.at10)} | ${f(row.floor.at5)} | ${f(row.floor.at10)} | +${f(row.ours.at5 - row.floor.at5)} |`,
    );
  console.log(
    `two-tool, both tools among the first k: mcpterm ${f(rows.multi.ours.all5)} / ${f(rows.multi.ours.all10)}, plain BM25 ${f(rows.multi.floor.all5)} / ${f(rows.multi.floor.all10)}`,
  );
  console.log(
    `offered per request (defaults, ${DEFAULT_CONTEXT_WINDOW}-token window): ${offered.tools.toFixed(1)} tools (search_tools included), ` +
      `${(100 * offered.share).toFixed(1)}% of the full list's ${fullTokens} estimated tokens; needed tools offered: ${f(offered.neededOffered)}`,
  );
  return { rows, offered };
}

// ---- 2. A large configuration of real servers ------------------------------------------------

const CATALOG_SERVERS = 10;
const COPIES = 10;

async function largeConfiguration(): Promise<Record<string, unknown>> {
  if (!ensureBuilt()) throw new Error("npm run build failed");
  await compileFixtures();
  const dir = await mkdtemp(path.join(os.tmpdir(), "mcpterm-tool-search-"));
  try {
    const workspace = path.join(dir, "workspace");
    await mkdir(workspace);
    const servers: Record<string, unknown> = {};
    const everything = path.join(
      REPO_ROOT,
      "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    const filesystem = path.join(
      REPO_ROOT,
      "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
    );
    for (let copy = 1; copy <= COPIES; copy++) {
      servers[`everything${copy}`] = { command: process.execPath, args: [everything, "stdio"] };
      servers[`files${copy}`] = { command: process.execPath, args: [filesystem, workspace] };
    }
    servers.fetch = {
      command: process.execPath,
      args: [path.join(REPO_ROOT, "dist/servers/fetch/fetch-server.js")],
    };
    const perServer = Math.ceil(catalog.length / CATALOG_SERVERS);
    for (let part = 0; part < CATALOG_SERVERS; part++) {
      const file = path.join(dir, `metatool${part + 1}.json`);
      const tools = catalog.slice(part * perServer, (part + 1) * perServer);
      await writeFile(file, JSON.stringify({ name: `metatool${part + 1}`, tools }));
      servers[`metatool${part + 1}`] = {
        command: process.execPath,
        args: [compiledFixture("tool-catalog-server"), file],
      };
    }
    const on = path.join(dir, "mcp.config.json");
    const off = path.join(dir, "off.config.json");
    // A window large enough that the request without selection is sent at all.
    const model = { contextWindow: 1_000_000 };
    await writeFile(on, JSON.stringify({ mcpServers: servers, model }));
    await writeFile(off, JSON.stringify({ mcpServers: servers, model, tools: { search: { mode: "off" } } }));

    const listed = JSON.parse((await cli(dir, ["tools", "--json"])).stdout) as {
      servers: Array<{ name: string; status: string; tools: Array<{ withheld?: string }> }>;
    };
    const toolCount = listed.servers
      .flatMap((server) => server.tools)
      .filter((tool) => !tool.withheld).length;
    const failed = listed.servers
      .filter((server) => server.status !== "connected")
      .map((server) => server.name);
    if (failed.length > 0) throw new Error(`servers did not start: ${failed.join(", ")}`);

    // Are the needed tools offered? One run of tools --search for the whole sample.
    const sample = [...seeded(single, SAMPLE.single), ...seeded(multi, SAMPLE.multi)];
    const args = ["tools", "--json", ...sample.flatMap((request) => ["--search", request.query])];
    const ranked = JSON.parse((await cli(dir, args)).stdout) as {
      queries: Array<{ query: string; offered: Array<{ server: string; tool: string; reason: string }> }>;
    };
    let needed = 0;
    let present = 0;
    let offeredCount = 0;
    ranked.queries.forEach((result, position) => {
      const request = sample[position];
      if (!request) return;
      const names = new Set(
        result.offered.filter((entry) => entry.server.startsWith("metatool")).map((entry) => entry.tool),
      );
      offeredCount += result.offered.length;
      needed += request.tools.length;
      present += request.tools.filter((tool) => names.has(tool)).length;
    });

    // The first request of a one-shot turn, with selection (the default) and without.
    const sizes = {
      on: [] as number[],
      off: [] as number[],
      onTools: [] as number[],
      offTools: [] as number[],
    };
    for (const request of seeded(single, SIZE_TURNS)) {
      for (const [mode, config] of [
        ["on", on],
        ["off", off],
      ] as const) {
        const modelServer = await startScriptedModelServer([{ text: "ok" }]);
        try {
          const run = await cli(dir, [
            ...["-p", request.query, "--config", config, "--trust-config", "--no-kb"],
            ...["--model", "m", "--base-url", modelServer.baseUrl],
          ]);
          if (run.code !== 0) throw new Error(`mcpterm -p exited ${run.code}: ${run.stderr}`);
          const body = modelServer.requests[0]?.body as { tools?: unknown[] } | undefined;
          if (!body) throw new Error("the model got no request");
          sizes[mode].push(estimateTextTokens(JSON.stringify(body)));
          sizes[mode === "on" ? "onTools" : "offTools"].push(
            estimateTextTokens(JSON.stringify(body.tools ?? [])),
          );
        } finally {
          await modelServer.close();
        }
      }
    }
    const mean = (values: readonly number[]): number =>
      values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
    const result = {
      servers: listed.servers.length,
      tools: toolCount,
      neededOffered: present / Math.max(1, needed),
      offeredPerRequest: offeredCount / Math.max(1, ranked.queries.length),
      requestTokens: { on: mean(sizes.on), off: mean(sizes.off) },
      toolTokens: { on: mean(sizes.onTools), off: mean(sizes.offTools) },
    };
    console.log(
      `\nLarge configuration: ${result.servers} real stdio servers, ${result.tools} tools ` +
        `(server-everything and server-filesystem x${COPIES}, fetch, the MetaTool catalog on ${CATALOG_SERVERS} servers)`,
    );
    console.log("| first request of a turn | whole request, est. tokens | tool definitions, est. tokens |");
    console.log("|---|---:|---:|");
    console.log(
      `| every tool (tools.search.mode off) | ${Math.round(result.requestTokens.off)} | ${Math.round(result.toolTokens.off)} |`,
    );
    console.log(
      `| selected (default) | ${Math.round(result.requestTokens.on)} | ${Math.round(result.toolTokens.on)} |`,
    );
    console.log(
      `selected / every tool: ${(100 * (result.requestTokens.on / result.requestTokens.off)).toFixed(1)}% of the request; ` +
        `${result.offeredPerRequest.toFixed(1)} tools offered per request over ${ranked.queries.length} MetaTool requests ` +
        `(tools --search, one run), needed tools offered: ${result.neededOffered.toFixed(3)}`,
    );
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The same `count` requests every run: every (length / count)-th one. */
function seeded<T>(items: readonly T[], count: number): T[] {
  const step = Math.max(1, Math.floor(items.length / count));
  return items.filter((_, index) => index % step === 0).slice(0, count);
}

function cli(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: cwd,
        MCPTERM_SETTINGS_DIR: path.join(cwd, ".settings"),
        NO_COLOR: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

const started = Date.now();
const results: Record<string, unknown> = {
  startedAt: new Date(started).toISOString(),
  defaults: DEFAULT_TOOL_SEARCH,
};
results.metatool = await metatool();
if (!catalogOnly) results.large = await largeConfiguration();
results.seconds = Math.round((Date.now() - started) / 1000);
await mkdir(resultsDir(false), { recursive: true });
await writeFile(path.join(resultsDir(false), "tool-search.json"), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\ntool-search: ${results.seconds as number} s`);
