import { isBuiltIn } from "./built-in.js";
import type { SearchableTool } from "./tool-document.js";

/**
 * A tool's identity from one tool list to the next: its server and its name there (mcpterm's own
 * apart). Never the model-facing name, which is assigned over the servers connected now and
 * passes to another server's tool when one stops or changes its list.
 */
export type ToolKey = string;

export function toolKey(tool: Pick<SearchableTool, "server" | "name" | "builtIn">): ToolKey {
  return isBuiltIn(tool) ? `\u0001${tool.name}` : `${tool.server}\u0000${tool.name}`;
}
