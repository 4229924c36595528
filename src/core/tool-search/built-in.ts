import { SEARCH_TOOLS_NAME } from "./search-tools-definition.js";
import type { SearchableTool } from "./tool-document.js";

/**
 * Whether a tool is one of mcpterm's own (search_tools, the knowledge base's search). Decided
 * here only, by the flag the hosts that make them set: a server may call itself "mcpterm" and
 * name a tool "search_tools", and its tools stay a server's, selected and counted as such.
 */
export function isBuiltIn(tool: Pick<SearchableTool, "builtIn">): boolean {
  return tool.builtIn === true;
}

/** mcpterm's own search_tools, which requests offer only while they select their tools. */
export function isSearchTool(tool: Pick<SearchableTool, "builtIn" | "name">): boolean {
  return isBuiltIn(tool) && tool.name === SEARCH_TOOLS_NAME;
}
