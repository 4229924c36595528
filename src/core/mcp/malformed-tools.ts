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

  /** `modern` when the connection settled on 2026-07-28, asked as each answer comes. */
  constructor(private readonly modern: () => boolean = () => true) {}

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
    const legacy = !this.modern();
    const kept = tools.filter((tool: unknown, index) => {
      const flaw = definitionFlaw(tool) ?? (legacy ? legacyOutputSchemaFlaw(tool) : undefined);
      if (flaw === undefined) return true;
      this.found.set(nameOf(tool) ?? `#${index + 1}`, `its definition is not valid MCP (${flaw})`);
      return false;
    });
    if (kept.length === tools.length) return message;
    return { ...message, result: { ...message.result, tools: kept } };
  }
}

/** Where and how a definition breaks MCP's Tool (as 2026-07-28 has it), or undefined. */
function definitionFlaw(tool: unknown): string | undefined {
  const parsed = ToolSchema.safeParse(tool);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join(".") : "the definition";
  return `${where}: ${(issue?.message ?? "invalid").slice(0, ISSUE_CHARS)}`;
}

/**
 * What 2025-11-25 asks of an `outputSchema` besides: an object schema (`"type": "object"`, its
 * `properties` an object, its `required` a list of names). 2026-07-28 takes any JSON Schema root,
 * so the SDK checks a 2025 server's listing by the older rule, and one tool breaking it would fail
 * the whole listing.
 */
function legacyOutputSchemaFlaw(tool: unknown): string | undefined {
  const schema = (tool as { outputSchema?: unknown }).outputSchema;
  if (schema === undefined) return undefined;
  if (!isPlainObject(schema)) return "outputSchema: not an object";
  if (schema.type !== "object")
    return `outputSchema.type: ${JSON.stringify(schema.type ?? null).slice(0, 40)}, where 2025-11-25 asks for "object"`;
  if (schema.properties !== undefined && !isPlainObject(schema.properties))
    return "outputSchema.properties: not an object";
  const { required } = schema;
  if (
    required !== undefined &&
    !(Array.isArray(required) && required.every((name) => typeof name === "string"))
  )
    return "outputSchema.required: not a list of names";
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nameOf(tool: unknown): string | undefined {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === "string" && name !== "" ? name : undefined;
}
