/** `tools.search` in mcp.config.json: when and how tools are selected for each request. */
export interface ToolSearchSettings {
  /** `auto`: select once the tools pass a budget below; `always`: select whatever their number; `off`: offer every tool. */
  mode: "auto" | "always" | "off";
  /** In `auto`, select when the tool definitions would take more than this share of the context window. */
  windowShare: number;
  /** In `auto`, select when there are more tools than this, however small they are. */
  maxTools: number;
  /** How many of the best-ranked tools each request offers, besides pinned, used and found ones. */
  limit: number;
  /** Offered in every request: `server` (all its tools) or `server/tool`; the servers' own `alwaysLoad` adds to it. */
  alwaysLoad: readonly string[];
}

export const TOOL_SEARCH_MODES = ["auto", "always", "off"] as const;

/**
 * Defaults: a quarter of the window is where /stats already warns that tool definitions crowd
 * the conversation out; past about 60 tools models pick worse whatever the window; ten ranked
 * tools kept Recall@10 near 0.7 on the MetaTool catalog (bench/tool-search-eval.ts).
 */
export const DEFAULT_TOOL_SEARCH: ToolSearchSettings = {
  mode: "auto",
  windowShare: 0.25,
  maxTools: 60,
  limit: 10,
  alwaysLoad: [],
};
