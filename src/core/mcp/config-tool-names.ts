import type { Tool } from "@modelcontextprotocol/client";
import type { ServerConfig } from "../config/config-types.js";
import { nearestKey } from "../config/nearest-key.js";
import { MAX_TOOL_NAME_CHARS } from "../policy/tool-withhold.js";

/** A tool the server lists that its config entry leaves out, and which list does. */
export interface LeftOutTool {
  name: string;
  by: "includeTools" | "excludeTools";
}

/**
 * The entry's own lists applied to what the server lists: the tools kept, those left out (so
 * `mcpterm call` can say the config hides one, not that the server lacks it), and a sentence for
 * each name in `includeTools`, `excludeTools` or `tiers` that the server does not list: a typo
 * there hides every tool (includeTools) or quietly leaves a tier unset, and is said.
 */
export function applyConfigToolNames(
  tools: readonly Tool[],
  config: Pick<ServerConfig, "includeTools" | "excludeTools" | "tiers">,
): { kept: Tool[]; leftOut: LeftOutTool[]; unknownNames: string[] } {
  const { includeTools, excludeTools } = config;
  const kept: Tool[] = [];
  const leftOut: LeftOutTool[] = [];
  for (const tool of tools) {
    if (includeTools.length > 0 && !includeTools.includes(tool.name))
      leftOut.push({ name: tool.name, by: "includeTools" });
    else if (excludeTools.includes(tool.name)) leftOut.push({ name: tool.name, by: "excludeTools" });
    else kept.push(tool);
  }
  const listed = tools.map((tool) => tool.name);
  const named: Array<[string, readonly string[]]> = [
    ["includeTools", includeTools],
    ["excludeTools", excludeTools],
    ["tiers", Object.keys(config.tiers)],
  ];
  const unknownNames = named.flatMap(([key, names]) =>
    names
      .filter((name) => !listed.includes(name))
      .map((name) => {
        // A name MCP allows is suggested; a server's 200 KB one is not quoted back.
        const near = nearestKey(
          name,
          listed.filter((candidate) => candidate.length <= MAX_TOOL_NAME_CHARS),
        );
        return `${key} names "${name}", which the server does not list${near === undefined ? "" : ` (did you mean "${near}"?)`}`;
      }),
  );
  return { kept, leftOut, unknownNames };
}
