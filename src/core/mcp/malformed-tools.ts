import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { ToolSchema } from "@modelcontextprotocol/core";

/** How much of a schema error is kept for the reason. */
const ISSUE_CHARS = 200;

/**
 * Takes tool definitions that are not valid MCP out of `tools/list` answers before the SDK reads
 * them: it checks the whole answer, and one bad definition would otherwise fail the listing, and
 * with it every other tool of the server. Each one taken out is kept with why, for `/mcp`,
 * `mcpterm tools` and its lint to name.
 */
export class MalformedTools {
  private readonly listings = new Set<string | number>();
  private readonly found = new Map<string, string>();

  /** The tools taken out of the answers since the last `take`, with why; forgets them. */
  take(): Array<{ name: string; reason: string }> {
    const refused = [...this.found].map(([name, reason]) => ({ name, reason }));
    this.found.clear();
    return refused;
  }

  /** Notes a `tools/list` request going out, whose answer is to be checked. */
  sent(message: JSONRPCMessage): void {
    if ("method" in message && message.method === "tools/list" && "id" in message)
      this.listings.add(message.id);
  }

  /** The message as the SDK may read it: a tools/list answer without its malformed tools. */
  received(message: JSONRPCMessage): JSONRPCMessage {
    if (!("id" in message) || !("result" in message) || !this.listings.delete(message.id)) return message;
    const { tools } = message.result as { tools?: unknown };
    if (!Array.isArray(tools)) return message;
    const kept = tools.filter((tool: unknown, index) => {
      const parsed = ToolSchema.safeParse(tool);
      if (parsed.success) return true;
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.map(String).join(".") : "the definition";
      this.found.set(
        nameOf(tool) ?? `#${index + 1}`,
        `its definition is not valid MCP (${where}: ${(issue?.message ?? "invalid").slice(0, ISSUE_CHARS)})`,
      );
      return false;
    });
    if (kept.length === tools.length) return message;
    return { ...message, result: { ...message.result, tools: kept } };
  }
}

function nameOf(tool: unknown): string | undefined {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === "string" && name !== "" ? name : undefined;
}
