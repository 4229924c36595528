import { conversationQuery } from "./conversation-query.js";
import type { ChatMessage } from "../llm/types.js";
import { isBuiltIn, isSearchTool } from "./built-in.js";
import { DEFAULT_TOOL_SEARCH, type ToolSearchSettings } from "../config/tool-search-settings.js";
import { isNamedIn, offerBudget, overBudgetSentence, searchDecision } from "./search-settings.js";
import {
  fixedOffer,
  selectTools,
  type FixedOffer,
  type HeldBackTool,
  type OfferedTool,
  type Remembered,
} from "./select-tools.js";
import type { SearchableTool } from "./tool-document.js";
import { ToolIndex, type RankedTool } from "./tool-index.js";
import { toolKey, type ToolKey } from "./tool-key.js";
import type { ToolVectors } from "./tool-vectors.js";
import { weightedTerms, writtenWords, type QueryPart } from "./weighted-query.js";

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
  /** Set when mcpterm's own and the pinned tools alone pass the budget: one sentence saying what to do. */
  problem?: string;
}

export interface SelectRequest<T extends SearchableTool> {
  /** Every tool that may be offered now, search_tools included, in their listed order. */
  tools: readonly T[];
  /** The person's words in this turn, and the conversation they belong to. */
  input: string;
  conversation: readonly ChatMessage[];
  /** The context window, in tokens. */
  window: number;
  /** Estimated tokens of one tool's definition, and of a whole list. */
  size: (tool: T) => number;
  listSize: (tools: readonly T[]) => number;
}

/** Used and found tools remembered; past this many, those used or found longest ago are forgotten. */
const MAX_REMEMBERED = 32;

interface Note extends Remembered {
  /** The request it was noted at (ToolSearch.requests), and its place among that request's notes. */
  request: number;
  order: number;
}

/**
 * A session's tool search: its settings, what the model used and found, what the person pinned,
 * the index over the current tool list (rebuilt when the list changes), and the last selection
 * for /tools. Requests over the budget offer, as far as their budget goes, mcpterm's own tools
 * and the pinned ones, the used and found ones (latest first), and the best-ranked for the
 * conversation; search_tools finds the rest.
 */
export class ToolSearch {
  /** Used and found tools, the most important first: later requests' first, then in noted order. */
  private remembered: Note[] = [];
  private requests = 0;
  private notes = 0;
  private readonly pins = new Set<string>();
  /** alwaysLoad entries already told to name no tool. */
  private readonly toldPins = new Set<string>();
  private cached: { tools: readonly SearchableTool[]; instructions: string; index: ToolIndex } | undefined;
  private last: ToolSelectionView | undefined;
  /** The last request's fixed offer worked out again with what is remembered now; unset when it did not select. */
  private nextFixed: (() => FixedOffer) | undefined;

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
    this.requests += 1;
    this.nextFixed = undefined;
    const servers = request.tools.filter((tool) => !isBuiltIn(tool));
    const decision = searchDecision(this.settings, {
      count: servers.length,
      tokens: request.listSize(servers),
      window: request.window,
    });
    if (!decision.on) {
      const view: ToolSelectionView<T> = {
        on: false,
        why: decision.why,
        total: servers.length,
        offered: request.tools
          .filter((tool) => !isSearchTool(tool))
          .map((tool) => ({ tool, reason: "always", score: 0, matched: [] })),
        heldBack: [],
      };
      this.last = view;
      return view;
    }
    const ranked = await this.rank(servers, conversationQuery(request.input, request.conversation));
    const fitting = {
      tools: request.tools,
      pinned: (tool: T) => this.isPinned(tool),
      size: request.size,
      budget: offerBudget(this.settings, request.window),
    };
    this.nextFixed = () => fixedOffer({ ...fitting, remembered: this.remembered });
    const { overBudget, ...selection } = selectTools({
      ...fitting,
      ranked,
      remembered: this.remembered,
      limit: this.settings.limit,
    });
    const view: ToolSelectionView<T> = {
      on: true,
      why: decision.why,
      total: servers.length,
      ...selection,
      ...(overBudget ? { problem: overBudgetSentence(this.settings, request.window, overBudget) } : {}),
    };
    this.last = view;
    return view;
  }

  /**
   * Of `tools` (just found), those the next request will offer: what the last one offered from,
   * fitted to its budget as the next one will fit it (fixedOffer). Found tools come before any
   * ranked one, so the conversation's words cannot change this; only a new tool list or window can.
   */
  offeredNext(tools: ReadonlyArray<Pick<SearchableTool, "server" | "name" | "builtIn">>): Set<ToolKey> {
    const keys = tools.map(toolKey);
    if (!this.nextFixed) return new Set(keys);
    const { reasons } = this.nextFixed();
    return new Set(keys.filter((key) => reasons.has(key)));
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
    const keyword = index.rank(weightedTerms(parts), writtenWords(parts));
    const { vectors } = this.options;
    return vectors ? vectors.fuse(index, parts[0]?.text ?? "", keyword) : keyword;
  }

  /** The model called these (the first the most important): offered from now on while there is room. */
  noteUsed(tools: ReadonlyArray<Pick<SearchableTool, "server" | "name" | "builtIn">>): void {
    this.note(tools, "used");
  }

  /** search_tools found these (best first): offered from the next request on while there is room. */
  noteFound(tools: ReadonlyArray<Pick<SearchableTool, "server" | "name" | "builtIn">>): void {
    this.note(tools, "found");
  }

  /** A new conversation (/clear, a resumed session): what the model used and found is forgotten. */
  forgetConversation(): void {
    this.remembered = [];
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

  /** The config's alwaysLoad entry that pins `server`'s tools, or this one of them, if one does. */
  configPin(server: string, tool?: string): string | undefined {
    return this.settings.alwaysLoad.find(
      (entry) => entry === server || (tool !== undefined && entry === `${server}/${tool}`),
    );
  }

  /**
   * A sentence for each alwaysLoad entry that names a tool its server, listing tools now
   * (`tools`, hidden and withheld ones included), does not have: a misspelt pin pins nothing.
   * Each is told once a session; entries whose server lists nothing (yet) wait.
   */
  misspeltPins(tools: ReadonlyArray<Pick<SearchableTool, "server" | "name" | "builtIn">>): string[] {
    const sentences: string[] = [];
    for (const entry of this.settings.alwaysLoad) {
      const slash = entry.indexOf("/");
      if (slash < 0 || this.toldPins.has(entry)) continue;
      const server = entry.slice(0, slash);
      const name = entry.slice(slash + 1);
      const own = tools.filter((tool) => !isBuiltIn(tool) && tool.server === server);
      if (own.length === 0 || own.some((tool) => tool.name === name)) continue;
      this.toldPins.add(entry);
      sentences.push(
        `alwaysLoad names "${entry}", but server "${server}" has no tool "${name}"; it pins nothing.`,
      );
    }
    return sentences;
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

  /**
   * Later requests' notes go first, so a new search's results come before an older one's; within
   * one request, what was noted first stays first, so a second search in the same step cannot
   * take the room its first one was promised. A tool both used and found counts as used.
   */
  private note(
    tools: ReadonlyArray<Pick<SearchableTool, "server" | "name" | "builtIn">>,
    reason: Note["reason"],
  ): void {
    for (const key of tools.map(toolKey)) {
      const earlier = this.remembered.find((entry) => entry.key === key);
      if (earlier?.request === this.requests) {
        if (reason === "used") earlier.reason = "used";
        continue;
      }
      const kept = earlier?.reason === "used" ? "used" : reason;
      this.remembered = this.remembered.filter((entry) => entry !== earlier);
      this.remembered.push({ key, reason: kept, request: this.requests, order: this.notes++ });
    }
    this.remembered.sort((a, b) => b.request - a.request || a.order - b.order);
    this.remembered.splice(MAX_REMEMBERED);
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
