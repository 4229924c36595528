import {
  DEFAULT_SEARCH_LIMIT,
  describeFound,
  MAX_SEARCH_LIMIT,
  SEARCH_TOOLS_DESCRIPTION,
  SEARCH_TOOLS_NAME,
  SEARCH_TOOLS_SCHEMA,
  type ToolSearch,
} from "../tool-search/index.js";
import { BUILT_IN_SERVER, type AgentTool, type ToolHost, type ToolOutcome } from "./tool-host.js";

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
  };

  constructor(
    private readonly search: ToolSearch,
    /** The servers' tools that may be offered now. */
    private readonly catalog: () => AgentTool[],
  ) {}

  list(): AgentTool[] {
    return [this.tool];
  }

  async call(_tool: AgentTool, args: Record<string, unknown>): Promise<ToolOutcome> {
    const query = typeof args.query === "string" ? args.query : "";
    const limit =
      typeof args.limit === "number" ? Math.min(MAX_SEARCH_LIMIT, args.limit) : DEFAULT_SEARCH_LIMIT;
    const candidates = this.catalog().filter(
      (tool) => tool.withheld === undefined && tool.server !== BUILT_IN_SERVER,
    );
    const found = await this.search.search(candidates, query, limit);
    this.search.noteFound(found.map((entry) => entry.tool.modelName));
    const offered = new Set(this.search.lastSelection()?.offered.map((entry) => entry.tool.modelName) ?? []);
    const text = describeFound(query, found, offered);
    return { ok: true, forModel: text, display: text, truncated: false, failure: undefined };
  }
}
