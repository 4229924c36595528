import type { CliArgs } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import type { AgentTool, ToolHost } from "../core/agent/tool-host.js";
import { offerTools } from "../core/agent/tool-offer.js";
import type { McptermConfig } from "../core/config/index.js";
import { resolveEmbeddingsSettings } from "../core/config/embeddings-settings.js";
import { resolveModelSettings, type ResolvedModelSettings } from "../core/config/model-settings.js";
import { ConfigError, ExitCode } from "../core/errors.js";
import { knowledgeDir } from "../core/kb/index.js";
import { DEFAULT_CONTEXT_WINDOW } from "../core/llm/context-probe.js";
import { ContextWindowCache } from "../core/llm/context-window-cache.js";
import { lazyChatModel } from "../core/llm/lazy-chat-model.js";
import { userCacheDir } from "../core/config/user-cache-dir.js";
import type { ContextWindow } from "../core/llm/types.js";
import { displayPretty } from "../core/policy/redacted-json.js";
import { sanitizeForTerminal, sanitizeOneLine } from "../core/policy/sanitize-terminal.js";
import { loadKnowledge, oneShotKnowledge, sessionToolHost } from "../core/session/session-tools.js";
import {
  isBuiltIn,
  serverToolsOffered,
  sessionToolSearch,
  type ToolSearch,
} from "../core/tool-search/index.js";
import { withServers } from "./with-one-server.js";

type ToolsArgs = Extract<CliArgs, { command: "tools" }>;

/** Ranked tools listed per request beside the ones offered, for a person to see what nearly made it. */
const RANKED_SHOWN = 20;

/**
 * `mcpterm tools --search "<request>"` (repeatable): starts the servers and the knowledge base
 * once, as a session does, then, for each request, builds the offer of the first step of a turn
 * with that message through the very functions a turn uses (sessionToolHost, offerTools: the
 * config's tools.search and alwaysLoad, the model's window as a session learns it, embeddings when
 * kb.embeddings is set) and prints what would be offered and the best-ranked tools with scores.
 * Deterministic: the same servers and requests give the same lists. Exit 4 when a server failed.
 */
export async function runToolSearchCommand(args: ToolsArgs, io: CliIo): Promise<ExitCode> {
  return withServers(args.common, args.server, io, async (manager, redactor, config) => {
    const warnings: string[] = [];
    const warn = (text: string): void => void warnings.push(text);
    const embeddings = resolveEmbeddingsSettings(config, io.env, args.common.trustConfig);
    if (embeddings.warning) warn(embeddings.warning);
    const search = sessionToolSearch(config, {
      embeddings: embeddings.settings,
      instructions: (name) => manager.servers().find((server) => server.name === name)?.instructions ?? "",
      warn,
    });
    const knowledge = oneShotKnowledge(
      config,
      args.kb,
      redactor.redactText,
      { flagDir: args.common.kbDir, cwd: io.cwd },
      warn,
    );
    if (knowledge.access().state === "loading") {
      const dir = (): string => knowledgeDir(args.common.kbDir, config, io.cwd);
      const opened = await loadKnowledge(knowledge, dir, io.cwd, {
        ...(embeddings.settings ? { embeddings: embeddings.settings } : {}),
        onWarning: warn,
      });
      // A knowledge folder that could not be opened (it leads outside the project, say) is said, as `-p` says it.
      if (opened.state === "off") warn(opened.reason);
    }
    const tools = sessionToolHost({
      knowledge,
      toolSearch: search,
      servers: new McpToolHost(manager, { redactor }),
    });
    const window = await sessionWindow(config, io.env, args.common.trustConfig);
    const results = [];
    for (const query of args.search) results.push(await rankFor(search, tools, query, window.tokens));
    // Said as `mcpterm tools` says it: a list without a server's tools must not read as complete.
    const failed = manager.servers().filter((server) => server.status === "failed");
    for (const server of failed)
      warn(`${server.name} failed — ${server.error ?? "no reason given"}; its tools are not in these lists.`);
    for (const warning of warnings)
      io.stderr.write(`warning: ${sanitizeOneLine(redactor.redactText(warning))}\n`);
    // On stdout too: a list read without stderr must not pass for the whole catalog.
    const failedServers = failed.map((server) => ({ name: server.name, error: server.error ?? "" }));
    if (args.json)
      io.stdout.write(
        `${displayPretty(
          {
            window: window.tokens,
            windowFrom: window.detail,
            queries: results,
            ...(failedServers.length > 0 ? { failedServers } : {}),
          },
          redactor.redactText,
        )}\n`,
      );
    else
      io.stdout.write(
        sanitizeForTerminal(
          redactor.redactText(
            [...results.map(renderResult), windowLine(window), ...failedServers.map(failedLine)].join("\n"),
          ),
        ),
      );
    return failed.length > 0 ? ExitCode.serverUnavailable : ExitCode.ok;
  });
}

/**
 * The window a session would select tools for: the model's as a session asks it (the settings,
 * else the endpoint's report), never sending the API key where a session would not; else the
 * default, saying why.
 */
async function sessionWindow(
  config: McptermConfig,
  env: NodeJS.ProcessEnv,
  trusted: boolean,
): Promise<ContextWindow> {
  let settings: ResolvedModelSettings;
  try {
    settings = resolveModelSettings({ flags: {}, env, config });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const configured = config.model.contextWindow;
    return configured === undefined
      ? { tokens: DEFAULT_CONTEXT_WINDOW, source: "default", detail: "the default: no model is set to ask" }
      : { tokens: configured, source: "config", detail: "model.contextWindow" };
  }
  const untrusted = settings.baseUrlFromConfig && settings.apiKeySource !== undefined && !trusted;
  if (settings.contextWindow === undefined && untrusted)
    return {
      tokens: DEFAULT_CONTEXT_WINDOW,
      source: "default",
      detail: `the default: the endpoint was not asked, since ${config.path ?? "the config"} names it and your API key would go with the question (--trust-config asks it)`,
    };
  // The cache a session reads: what it learned in the last day is what it would select for.
  const model = lazyChatModel(settings, undefined, new ContextWindowCache(userCacheDir(env)));
  return model.contextWindow
    ? model.contextWindow()
    : { tokens: DEFAULT_CONTEXT_WINDOW, source: "default", detail: "the default" };
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
  selection: { on: boolean; why: string; total: number; offered: number; problem?: string };
  offered: Array<RankedEntry & { reason: string }>;
  ranked: Array<RankedEntry & { offered: boolean }>;
}

async function rankFor(
  search: ToolSearch,
  host: ToolHost,
  query: string,
  window: number,
): Promise<QueryResult> {
  const offer = await offerTools(host, search, {
    input: query,
    conversation: [{ role: "user", content: query }],
    window,
  });
  const view = search.lastSelection();
  const offered = view?.offered ?? [];
  const names = new Set(offer.tools.map((tool) => tool.modelName));
  const servers = host.list().filter((tool) => tool.withheld === undefined && !isBuiltIn(tool));
  const ranked = await search.rank(servers, [{ text: query, weight: 1 }]);
  return {
    query,
    selection: {
      on: view?.on ?? false,
      why: view?.why ?? "",
      total: view?.total ?? servers.length,
      offered: serverToolsOffered(offered),
      ...(view?.problem ? { problem: view.problem } : {}),
    },
    offered: offered.map((entry) => ({
      ...entryOf(entry.tool, entry.score, entry.matched),
      reason: entry.reason,
    })),
    ranked: ranked.slice(0, RANKED_SHOWN).map((entry) => ({
      ...entryOf(entry.tool, entry.score, entry.matched),
      offered: names.has(entry.tool.modelName),
    })),
  };
}

function entryOf(
  tool: Pick<AgentTool, "modelName" | "server" | "name">,
  score: number,
  matched: readonly string[],
): RankedEntry {
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
  if (result.selection.problem) lines.push(`  ⚠ ${result.selection.problem}`);
  return `${lines.join("\n")}\n`;
}

function failedLine(server: { name: string; error: string }): string {
  return `(${server.name} failed to start — ${server.error || "no reason given"}; its tools are in none of these lists)\n`;
}

function windowLine(window: ContextWindow): string {
  return `(selected for a ${window.tokens.toLocaleString("en-US")}-token window: ${window.detail})\n`;
}
