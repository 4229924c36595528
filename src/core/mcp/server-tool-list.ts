import type { Client, Tool } from "@modelcontextprotocol/client";
import type { ServerConfig } from "../config/config-types.js";
import type { LoggingLevel } from "../deprecated-mcp.js";
import { errorMessage } from "../errors.js";
import { cannotRunAsTask, needsTaskExecution } from "../policy/tool-withhold.js";
import { applyConfigToolNames, type LeftOutTool } from "./config-tool-names.js";
import { MalformedTools } from "./malformed-tools.js";
import type { ResponseCache } from "./response-cache.js";
import { ToolCallError } from "./tool-call-error.js";
import { ToolListRefresh } from "./tool-list-refresh.js";
import { listToolPages } from "./tool-listing.js";
import type { ServerSnapshot, ServerTool } from "./types.js";
import { xMcpHeaderProblem } from "./x-mcp-header.js";

/** A burst of list_changed notifications is answered with one listing, this long after the last. */
const TOOL_REFRESH_DEBOUNCE_MS = 50;

export interface ServerToolListOptions {
  server: string;
  /** Pages the server said may be kept come from here while they may; a change empties it. */
  cache: ResponseCache;
  config: Pick<ServerConfig, "includeTools" | "excludeTools" | "tiers" | "startupTimeoutMs">;
  note: (level: LoggingLevel, text: string) => void;
  onChange: () => void;
  /** Whether tool arguments go out as headers where a tool asks (2026 over Streamable HTTP). */
  sendsHeaders: () => boolean;
  isClosing: () => boolean;
}

/**
 * The tools one server offers: listed on connecting, listed again when it says they changed,
 * filtered by the entry's include/exclude lists, and with the tools that cannot be offered kept
 * apart with why (malformed definitions, broken `x-mcp-header` declarations).
 */
export class ServerToolList {
  private tools: ServerTool[] = [];
  private refused: ServerSnapshot["refusedTools"] = [];
  private leftOut: LeftOutTool[] = [];
  private unknownNames: string[] = [];
  private malformed = new MalformedTools();
  private readonly refresh = new ToolListRefresh();
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ServerToolListOptions) {}

  get listed(): ServerTool[] {
    return this.tools;
  }

  get refusedTools(): ServerSnapshot["refusedTools"] {
    return this.refused;
  }

  get leftOutTools(): readonly LeftOutTool[] {
    return this.leftOut;
  }

  /** A sentence for each name the config entry gives a tool the server does not list. */
  get configNameProblems(): readonly string[] {
    return this.unknownNames;
  }

  /** The tool as listed now, if it is. */
  definition(name: string): Tool | undefined {
    return this.tools.find((listed) => listed.definition.name === name)?.definition;
  }

  /** A fresh check of a new transport's `tools/list` answers, to tap into it (see MalformedTools). */
  checkAnswers(modern: () => boolean): MalformedTools {
    this.malformed = new MalformedTools(modern);
    return this.malformed;
  }

  /** Lists the tools of a newly connected client within `deadlineMs`; throws what went wrong. */
  async list(client: Client, deadlineMs: number): Promise<void> {
    this.tools = client.getServerCapabilities()?.tools
      ? this.filter(await listToolPages(client, deadlineMs, this.options.cache))
      : [];
  }

  /** The server said its tools changed (tools/list_changed): listed again once a burst is over. */
  changed(client: Client): void {
    const change = this.refresh.announce();
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.relist(client, change), TOOL_REFRESH_DEBOUNCE_MS);
  }

  /** Fetches the list after announcement `change`; a list that cannot be fetched withdraws the tools. */
  async relist(client: Client, change: number = this.refresh.announce()): Promise<void> {
    if (this.options.isClosing()) return;
    // Listed again because it changed (or a call found it stale): nothing kept of it holds.
    this.options.cache.invalidate("tools/list");
    try {
      const { cache, config } = this.options;
      this.tools = this.filter(await listToolPages(client, config.startupTimeoutMs, cache));
    } catch (error) {
      this.tools = [];
      this.options.note(
        "warning",
        `the server said its tools changed but could not list them (${errorMessage(error)}); its tools are withdrawn until it does`,
      );
    } finally {
      this.refresh.answered(change);
      this.options.onChange();
    }
  }

  /**
   * Resolves true once no announced tool change is waiting to be listed, false if `ms` pass
   * first; callers then must not trust the definitions they hold.
   */
  settled(ms: number): Promise<boolean> {
    return this.refresh.settled(ms);
  }

  /** A stopped server has no tools to wait for: nobody waits on a change it announced. */
  stop(): void {
    clearTimeout(this.refreshTimer);
    this.refresh.answered();
  }

  /**
   * Whether a call to `tool` asks a 2025 server for a task: the tool requires one. A server that
   * does not offer tasks for tool calls cannot run it at all, and is not sent it.
   */
  asksTask(tool: string, capabilities: unknown): boolean {
    const definition = this.definition(tool);
    if (!definition || !needsTaskExecution(definition)) return false;
    if (!cannotRunAsTask(definition, capabilities)) return true;
    throw new ToolCallError(
      "business",
      `${tool} can only run as an MCP task, and server "${this.options.server}" does not offer tasks for tool calls (capabilities.tasks.requests.tools.call)`,
    );
  }

  private filter(tools: Tool[]): ServerTool[] {
    const { kept: chosen, leftOut, unknownNames } = applyConfigToolNames(tools, this.options.config);
    this.leftOut = leftOut;
    this.unknownNames = unknownNames;
    // SEP-2243: over 2026 HTTP a tool whose x-mcp-header declarations break the rules cannot be
    // called as it asks, and must not be listed; one such tool never costs the others.
    const badHeaders = this.options.sendsHeaders()
      ? chosen.flatMap((tool) => {
          const reason = xMcpHeaderProblem(tool.inputSchema);
          return reason === undefined ? [] : [{ name: tool.name, reason: `${reason} (SEP-2243)` }];
        })
      : [];
    const refusedHeaders = new Set(badHeaders.map((tool) => tool.name));
    const { kept, repeated } = firstOfEachName(chosen.filter((tool) => !refusedHeaders.has(tool.name)));
    this.refused = [...this.malformed.take(), ...badHeaders, ...repeated];
    for (const refused of this.refused)
      this.options.note("warning", `tool ${refused.name} is not listed: ${refused.reason}`);
    return kept.map((definition) => ({ server: this.options.server, definition }));
  }
}

/**
 * A server that lists two tools under one name gives the model two functions it cannot tell
 * apart (and one model name for both): the first is kept, as a call by that name reaches it,
 * and each later one is refused with why, for `/mcp`, `mcpterm tools` and its lint.
 */
function firstOfEachName(tools: readonly Tool[]): {
  kept: Tool[];
  repeated: Array<{ name: string; reason: string }>;
} {
  const seen = new Set<string>();
  const kept: Tool[] = [];
  const repeated: Array<{ name: string; reason: string }> = [];
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      repeated.push({
        name: tool.name,
        reason: "the server lists another tool by this name before it; only the first is offered",
      });
      continue;
    }
    seen.add(tool.name);
    kept.push(tool);
  }
  return { kept, repeated };
}
