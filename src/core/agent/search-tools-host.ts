import {
  DEFAULT_SEARCH_LIMIT,
  describeFound,
  MAX_SEARCH_LIMIT,
  SEARCH_TOOLS_DESCRIPTION,
  SEARCH_TOOLS_NAME,
  SEARCH_TOOLS_SCHEMA,
  isBuiltIn,
  MAX_QUERY_CHARS,
  type ToolSearch,
} from "../tool-search/index.js";
import { DEFAULT_RESULT_CHAR_LIMIT } from "../policy/result-text.js";
import { clipText } from "../text/index.js";
import { estimateTextTokens } from "../window/token-estimate.js";
import {
  BUILT_IN_SERVER,
  type AgentTool,
  type ToolCallContext,
  type ToolHost,
  type ToolOutcome,
} from "./tool-host.js";

/**
 * The built-in read-only tool search_tools: the model describes what it needs, and the tools
 * that match best are offered to it from its next step on (ToolSearch.noteFound). It searches
 * only what may be offered (`catalog`: no hidden or withheld tool), and the run loop offers it
 * only while requests select their tools.
 */
export class SearchToolsHost implements ToolHost {
  private readonly tool: AgentTool = {
    modelName: SEARCH_TOOLS_NAME,
    server: BUILT_IN_SERVER,
    name: SEARCH_TOOLS_NAME,
    description: SEARCH_TOOLS_DESCRIPTION,
    modelDescription: SEARCH_TOOLS_DESCRIPTION,
    inputSchema: SEARCH_TOOLS_SCHEMA,
    modelInputSchema: SEARCH_TOOLS_SCHEMA,
    tier: "read_only",
    tierReason: "built-in: searches the configured tools' names and descriptions",
    notes: [],
    builtIn: true,
  };

  constructor(
    private readonly search: ToolSearch,
    /** The servers' tools that may be offered now. */
    private readonly catalog: () => AgentTool[],
  ) {}

  list(): AgentTool[] {
    return [this.tool];
  }

  /**
   * Searches with the query's first MAX_QUERY_CHARS, and lists as many of the tools found as the
   * result limits of the step allow (`context`), as any tool's result is held to them; only the
   * tools listed are noted as found, so none is offered that the model was not told of.
   */
  async call(
    _tool: AgentTool,
    args: Record<string, unknown>,
    context?: ToolCallContext,
  ): Promise<ToolOutcome> {
    const query = clipText(typeof args.query === "string" ? args.query : "", MAX_QUERY_CHARS);
    const limit =
      typeof args.limit === "number" ? Math.min(MAX_SEARCH_LIMIT, args.limit) : DEFAULT_SEARCH_LIMIT;
    const candidates = this.catalog().filter((tool) => tool.withheld === undefined && !isBuiltIn(tool));
    const found = await this.search.search(candidates, query, limit);
    const chars = context?.resultCharLimit ?? DEFAULT_RESULT_CHAR_LIMIT;
    const tokens = context?.resultTokenLimit;
    const fits = (text: string): boolean =>
      text.length <= chars && (tokens === undefined || estimateTextTokens(text) <= tokens);
    // Measured with every tool marked as not offered, the longest the answer can be.
    let listed = found;
    while (listed.length > 0 && !fits(describeFound(query, listed, new Set()))) listed = listed.slice(0, -1);
    if (listed.length === 0 && found.length > 0) {
      const text =
        "Tools were found, but the context window has no room left for this answer. Answer with what you have, or ask the person to start afresh (/clear).";
      return { ok: true, forModel: text, display: text, truncated: true, failure: undefined };
    }
    const tools = listed.map((entry) => entry.tool);
    this.search.noteFound(tools);
    const text = describeFound(query, listed, this.search.offeredNext(tools));
    return {
      ok: true,
      forModel: text,
      display: text,
      truncated: listed.length < found.length,
      failure: undefined,
    };
  }
}
