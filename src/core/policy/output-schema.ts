import type { CallToolResult } from "@modelcontextprotocol/client";
import type { SchemaValidator } from "./schema-validator.js";

/**
 * Whether a result keeps the promise its tool's outputSchema makes, and in one sentence why not:
 * the spec says a tool with an outputSchema MUST return structuredContent that conforms to it.
 * An error result need not (it reports the failure instead), and a schema that cannot be compiled
 * cannot be checked.
 */
export function outputSchemaProblem(
  outputSchema: Record<string, unknown> | undefined,
  result: CallToolResult,
  validator: SchemaValidator,
): string | undefined {
  if (!outputSchema || result.isError === true) return undefined;
  if (result.structuredContent === undefined)
    return "The tool has an outputSchema but returned no structuredContent, which the MCP spec requires.";
  const [first, ...rest] = validator.mismatches(outputSchema, result.structuredContent);
  if (!first) return undefined;
  const where = first.path === "" ? "at the top level" : `at ${first.path}`;
  const more =
    rest.length === 0 ? "" : ` (and ${rest.length} more ${rest.length === 1 ? "mismatch" : "mismatches"})`;
  return `The structuredContent does not match the tool's outputSchema ${where}: it ${first.message}${more}.`;
}
