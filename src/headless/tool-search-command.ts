import type { CliArgs } from "../args.js";
import type { CliIo } from "../common/cli-io.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import { SearchToolsHost } from "../core/agent/search-tools-host.js";
import { BUILT_IN_SERVER, type AgentTool } from "../core/agent/tool-host.js";
import { toolTokens } from "../core/agent/tool-offer.js";
import { resolveEmbeddingsSettings } from "../core/config/embeddings-settings.js";
import { DEFAULT_CONTEXT_WINDOW } from "../core/llm/context-probe.js";
import { ExitCode } from "../core/errors.js";
import { displayPretty } from "../core/policy/redacted-json.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { sessionToolSearch, type ToolSearch, type ToolSelectionView } from "../core/tool-search/index.js";
import { withServers } from "./with-one-server.js";

type ToolsArgs = Extract<CliArgs, { command: "tools" }>;

/** Ranked tools listed per request beside the ones offered, for a person to see what nearly made it. */
const RANKED_SHOWN = 20;

/**
 * `mcpterm tools --search "<request>"` (repeatable): starts the servers once, then, for each
 * request, selects the tools exactly as the first step of a turn with that message would (the
 * config's tools.search, its alwaysLoad, the configured window or the default one, embeddings when
 * kb.embeddings is set) and prints what would be offered and the best-ranked tools with scores.
 * Deterministic: the same servers and requests give the same lists. Exit 4 when a server failed.
 */
export async function runToolSearchCommand(args: ToolsArgs, io: CliIo): Promise<ExitCode> {
  return withServers(args.common, args.server, io, async (manager, redactor, config) => {
    const warnings: string[] = [];
    const search = sessionToolSearch(config, {
      embeddings: resolveEmbeddingsSettings(config, io.env, false).settings,
      instructions: (name) => manager.servers().find((server) => server.name === name)?.instructions ?? "",
      warn: (text) => warnings.push(text),
    });
    const mcpTools = new McpToolHost(manager, { redactor });
    const servers = (): AgentTool[] => mcpTools.list();
    const tools = [...new SearchToolsHost(search, servers).list(), ...servers()].filter(
      (tool) => tool.withheld === undefined,
    );
    const window = config.model.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
    const results = [];
    for (const query of args.search) results.push(await rankFor(search, tools, query, window));
    for (const warning of warnings) io.stderr.write(`warning: ${redactor.redactText(warning)}\n`);
    if (args.json) io.stdout.write(`${displayPretty({ window, queries: results }, redactor.redactText)}\n`);
    else io.stdout.write(sanitizeForTerminal(redactor.redactText(results.map(renderResult).join("\n"))));
    const anyFailed = manager.servers().some((server) => server.status === "failed");
    return anyFailed ? ExitCode.serverUnavailable : ExitCode.ok;
  });
}

interface RankedEntry {
  name: string;
  server: string;
  tool: string;
  score: number;
  matched: string[];
}

interface QueryResult {
  query: string;
  selection: { on: boolean; why: string; total: number; offered: number };
  offered: Array<RankedEntry & { reason: string }>;
  ranked: Array<RankedEntry & { offered: boolean }>;
}

async function rankFor(
  search: ToolSearch,
  tools: readonly AgentTool[],
  query: string,
  window: number,
): Promise<QueryResult> {
  const view: ToolSelectionView<AgentTool> = await search.select({
    tools,
    always: (tool) => tool.server === BUILT_IN_SERVER,
    input: query,
    conversation: [{ role: "user", content: query }],
    window,
    size: toolTokens,
    listSize: (list) => list.reduce((sum, tool) => sum + toolTokens(tool), 0),
  });
  const offered = new Set(view.offered.map((entry) => entry.tool.modelName));
  const ranked = await search.rank(
    tools.filter((tool) => tool.server !== BUILT_IN_SERVER),
    [{ text: query, weight: 1 }],
  );
  return {
    query,
    selection: {
      on: view.on,
      why: view.why,
      total: view.total,
      offered: view.offered.filter((entry) => entry.tool.server !== BUILT_IN_SERVER).length,
    },
    offered: view.offered.map((entry) => ({
      ...entryOf(entry.tool, entry.score, entry.matched),
      reason: entry.reason,
    })),
    ranked: ranked.slice(0, RANKED_SHOWN).map((entry) => ({
      ...entryOf(entry.tool, entry.score, entry.matched),
      offered: offered.has(entry.tool.modelName),
    })),
  };
}

function entryOf(tool: AgentTool, score: number, matched: readonly string[]): RankedEntry {
  return {
    name: tool.modelName,
    server: tool.server,
    tool: tool.name,
    score: round(score),
    matched: [...matched],
  };
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}

function renderResult(result: QueryResult): string {
  const { selection } = result;
  const head = selection.on
    ? `${JSON.stringify(result.query)}: ${selection.offered} of ${selection.total} tools offered, and search_tools (${selection.why})`
    : `${JSON.stringify(result.query)}: every tool is offered (${selection.why})`;
  const lines = [head];
  result.ranked.forEach((entry, position) => {
    const mark = entry.offered ? "✓" : " ";
    const matched = entry.matched.length > 0 ? `  matched ${entry.matched.join(", ")}` : "";
    lines.push(
      `  ${mark} ${String(position + 1).padStart(2)}. ${entry.server}/${entry.tool}  ${entry.score.toFixed(2)}${matched}`,
    );
  });
  const pinned = result.offered.filter((entry) => entry.reason === "pinned");
  if (pinned.length > 0)
    lines.push(`  pinned: ${pinned.map((entry) => `${entry.server}/${entry.tool}`).join(", ")}`);
  if (result.ranked.length === 0) lines.push("  (no tool matched any word of it)");
  return `${lines.join("\n")}\n`;
}
