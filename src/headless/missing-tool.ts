import { RuntimeError, UsageError, type McptermError } from "../core/errors.js";
import type { ServerSnapshot } from "../core/mcp/types.js";

/**
 * Why a tool typed on the command line cannot be used: the server does not list it (a typo:
 * exit 2, with the names it has), or it lists it and mcpterm set it aside as not valid MCP (the
 * server's fault: exit 1, with the reason, so its author is not told the tool does not exist).
 */
export function missingToolError(server: string, name: string, snapshot: ServerSnapshot): McptermError {
  const refused = snapshot.refusedTools.find((tool) => tool.name === name);
  if (refused)
    return new RuntimeError(
      `Server "${server}" lists a tool "${name}", but mcpterm set it aside: ${refused.reason}; fix its definition (mcpterm tools shows every finding).`,
    );
  const names = snapshot.tools.map((tool) => tool.definition.name).join(", ") || "none";
  return new UsageError(`Server "${server}" has no tool "${name}" (tools: ${names}).`);
}
