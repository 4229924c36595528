import { conversationQuery } from "./conversation-query.js";
import type { ChatMessage } from "../llm/types.js";
import { SEARCH_TOOLS_NAME } from "./search-tools-definition.js";
import { DEFAULT_TOOL_SEARCH, type ToolSearchSettings } from "../config/tool-search-settings.js";
import { isNamedIn, RANKED_WINDOW_SHARE, searchDecision } from "./search-settings.js";
import { selectTools, type HeldBackTool, type OfferedTool } from "./select-tools.js";
import type { SearchableTool } from "./tool-document.js";
import { ToolIndex, type RankedTool } from "./tool-index.js";
import type { ToolVectors } from "./tool-vectors.js";
import { weightedTerms, type QueryPart } from "./weighted-query.js";

/** One request's tools: all of them when selection is off, else what was offered and held back. */
export interface ToolSelectionView<T extends SearchableTool = SearchableTool> {
  /** Whether this request selected its tools. */
  on: boolean;
  /** Why it did or did not, in a sentence. */
  why: string;
  /** The servers' tools that could have been offered (mcpterm's own left out). */
  total: number;
  offered: Array<OfferedTool<T>>;
  heldBack: Array<HeldBackTool<T>>;
}

export interface SelectRequest<T extends SearchableTool> {
  /** Every tool that may be offered now, search_tools included, in their listed order. */
  tools: readonly T[];
  /** mcpterm's own tools, offered whenever selection is on. */
  always: (tool: T) => boolean;
  /** The person's words in this turn, and the conversation they belong to. */
  input: string;
  conversation: readonly ChatMessage[];
  /** The context window, in tokens. */
  window: number;
  /** Estimated tokens of one tool's definition, and of a whole list. */
  size: (tool: T) => number;
  listSize: (tools: readonly T[]) => number;
}

/** Used and found tools stay offered; past this many, the ones used or found longest ago go. */
const MAX_REMEMBERED = 32;

/**
 * A session's tool search: its settings, what the model used and found, what the person pinned,
 * the index over the current tool list (rebuilt when the list changes), and the last selection
 * for /tools. Requests over the budget offer mcpterm's own tools, the pinned, used and found
 * ones, and the best-ranked for the conversation; search_tools finds the rest.
 */
export class ToolSearch {
  private readonly used: string[] = [];
  private readonly found: string[] = [];
  private readonly pins = new Set<string>();
  private cached: { tools: readonly SearchableTool[]; instructions: string; index: ToolIndex } | undefined;
  private last: ToolSelectionView | undefined;

  constructor(
    readonly settings: ToolSearchSettings = DEFAULT_TOOL_SEARCH,
    private readonly options: {
      /** A server's instructions from initialize, searched with its tools. */
      instructions?: (server: string) => string;
      /** Embeddings joined to the ranking (kb.embeddings), when configured. */
      vectors?: ToolVectors;
    } = {},
  ) {}

  /** The tools of one request and why; remembered for /tools. */
  async select<T extends SearchableTool>(request: SelectRequest<T>): Promise<ToolSelectionView<T>> {
    const searchTool = request.tools.filter(
      (tool) => request.always(tool) && tool.name === SEARCH_TOOLS_NAME,
    );
    const tools = request.tools.filter((tool) => !searchTool.includes(tool));
    const decision = searchDecision(this.settings, {
      count: tools.length,
      tokens: request.listSize(tools),
      window: request.window,
    });
    if (!decision.on) {
      const view: ToolSelectionView<T> = {
        on: false,
        why: decision.why,
        total: tools.filter((tool) => !request.always(tool)).length,
        offered: tools.map((tool) => ({ tool, reason: "always", score: 0, matched: [] })),
        heldBack: [],
      };
      this.last = view;
      return view;
    }
    const ranked = await this.rank(tools, conversationQuery(request.input, request.conversation));
    const selection = selectTools({
      tools: [...searchTool, ...tools],
      ranked,
      always: request.always,
      pinned: (tool) => this.isPinned(tool),
      used: new Set(this.used),
      found: new Set(this.found),
      limit: this.settings.limit,
      size: request.size,
      maxTokens: Math.max(1, Math.floor(request.window * RANKED_WINDOW_SHARE)),
    });
    const total = tools.filter((tool) => !request.always(tool)).length;
    const view: ToolSelectionView<T> = { on: true, why: decision.why, total, ...selection };
    this.last = view;
    return view;
  }

  /** The tools best matching `query` (search_tools, `mcpterm tools --search`), best first. */
  async search<T extends SearchableTool>(
    tools: readonly T[],
    query: string,
    limit: number,
  ): Promise<Array<RankedTool<T>>> {
    const ranked = await this.rank(tools, [{ text: query, weight: 1 }]);
    return ranked.filter((entry) => entry.score > 0).slice(0, limit);
  }

  /** The tools as a turn would rank them for `parts`, best first; those that match nothing are left out. */
  async rank<T extends SearchableTool>(
    tools: readonly T[],
    parts: readonly QueryPart[],
  ): Promise<Array<RankedTool<T>>> {
    const index = this.indexOf(tools);
    const keyword = index.rank(weightedTerms(parts));
    const { vectors } = this.options;
    return vectors ? vectors.fuse(index, parts[0]?.text ?? "", keyword) : keyword;
  }

  /** The model called these: they stay offered for the rest of the session. */
  noteUsed(modelNames: readonly string[]): void {
    remember(this.used, modelNames);
  }

  /** search_tools found these: they are offered from the next request on. */
  noteFound(modelNames: readonly string[]): void {
    remember(this.found, modelNames);
  }

  /** A new conversation (/clear, a resumed session): what the model used and found is forgotten. */
  forgetConversation(): void {
    this.used.splice(0);
    this.found.splice(0);
  }

  /** `/tools pin`: offer `server`'s tools, or one of them, in every request this session. */
  pin(server: string, tool?: string): void {
    this.pins.add(tool === undefined ? server : `${server}/${tool}`);
  }

  /** False when it was not pinned by the person (the config's alwaysLoad cannot be unpinned here). */
  unpin(server: string, tool?: string): boolean {
    return this.pins.delete(tool === undefined ? server : `${server}/${tool}`);
  }

  pinned(): string[] {
    return [...this.pins];
  }

  isPinned(tool: SearchableTool): boolean {
    return (
      isNamedIn(this.settings.alwaysLoad, tool.server, tool.name) ||
      isNamedIn(this.pins, tool.server, tool.name)
    );
  }

  /** The last request's selection, for /tools; undefined before the first request. */
  lastSelection(): ToolSelectionView | undefined {
    return this.last;
  }

  /** The index over this list of tools, built again only when the list or an instruction changed. */
  private indexOf<T extends SearchableTool>(tools: readonly T[]): ToolIndex<T> {
    const instructions = this.options.instructions ?? (() => "");
    const servers = [...new Set(tools.map((tool) => tool.server))];
    const said = servers.map((server) => `${server}\u0000${instructions(server)}`).join("\u0001");
    const cached = this.cached;
    if (cached && cached.instructions === said && sameTools(cached.tools, tools))
      return cached.index as ToolIndex<T>;
    const index = new ToolIndex(tools, instructions);
    this.cached = { tools, instructions: said, index };
    return index;
  }
}

function sameTools(a: readonly SearchableTool[], b: readonly SearchableTool[]): boolean {
  return a.length === b.length && a.every((tool, position) => tool === b[position]);
}

function remember(list: string[], names: readonly string[]): void {
  for (const name of names) {
    const at = list.indexOf(name);
    if (at >= 0) list.splice(at, 1);
    list.push(name);
  }
  list.splice(0, Math.max(0, list.length - MAX_REMEMBERED));
}
