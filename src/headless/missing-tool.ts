import { RuntimeError, UsageError, type McptermError } from "../core/errors.js";
import type { ServerSnapshot } from "../core/mcp/types.js";
import { listedToolName } from "../core/policy/tool-withhold.js";

/**
 * Why a tool typed on the command line cannot be used: the server does not list it (a typo:
 * exit 2, with the names it has), its config entry leaves it out (exit 2, naming the list), or
 * it lists it and mcpterm set it aside as not valid MCP (the
 * server's fault: exit 1, with the reason, so its author is not told the tool does not exist).
 */
export function missingToolError(server: string, name: string, snapshot: ServerSnapshot): McptermError {
  const refused = snapshot.refusedTools.find((tool) => tool.name === name);
  if (refused)
    return new RuntimeError(
      `Server "${server}" lists a tool "${name}", but mcpterm set it aside: ${refused.reason}; fix its definition (mcpterm tools shows every finding).`,
    );
  const leftOut = snapshot.leftOutTools?.find((tool) => tool.name === name);
  if (leftOut)
    return new UsageError(
      `Server "${server}" lists a tool "${name}", but its config entry's ${leftOut.by} leaves it out; ${leftOut.by === "includeTools" ? "add it to" : "take it out of"} "${leftOut.by}" to use it.`,
    );
  const names = snapshot.tools.map((tool) => listedToolName(tool.definition.name)).join(", ") || "none";
  return new UsageError(`Server "${server}" has no tool "${name}" (tools: ${names}).`);
}
