import type { CallToolResult } from "@modelcontextprotocol/client";
import type { SchemaValidator } from "./schema-validator.js";

const NO_STRUCTURED_CONTENT =
  "The tool has an outputSchema but returned no structuredContent, which the MCP spec requires.";
/** Mismatches named in the one-sentence form; --json and `mcpterm call` list every one. */
const MAX_IN_SENTENCE = 10;

/**
 * Every way a result breaks the promise its tool's outputSchema makes (`at /temperature: it must
 * be number`), in the validator's order: the spec says a tool with an outputSchema MUST return
 * structuredContent that conforms to it. Empty when it keeps it, when the tool declares no
 * outputSchema, for an error result (it reports the failure instead), and when the schema cannot
 * be compiled (so cannot be checked; `mcpterm tools` lints it).
 */
export function outputSchemaMismatches(
  outputSchema: Record<string, unknown> | undefined,
  result: CallToolResult,
  validator: SchemaValidator,
): string[] {
  if (!outputSchema || result.isError === true) return [];
  if (result.structuredContent === undefined) return [NO_STRUCTURED_CONTENT];
  return validator
    .mismatches(outputSchema, result.structuredContent)
    .map(
      (mismatch) =>
        `${mismatch.path === "" ? "at the top level" : `at ${mismatch.path}`}: it ${mismatch.message}`,
    );
}

/** The same as one sentence, naming every mismatch (the first ten, and how many more). */
export function outputSchemaProblem(
  outputSchema: Record<string, unknown> | undefined,
  result: CallToolResult,
  validator: SchemaValidator,
): string | undefined {
  return describeMismatches(outputSchemaMismatches(outputSchema, result, validator));
}

/** Mismatches from outputSchemaMismatches as one sentence; undefined for none. */
export function describeMismatches(mismatches: readonly string[]): string | undefined {
  const [first] = mismatches;
  if (first === undefined) return undefined;
  if (first === NO_STRUCTURED_CONTENT) return first;
  if (mismatches.length === 1) return `${MISMATCH_INTRO} ${first}.`;
  const named = mismatches.slice(0, MAX_IN_SENTENCE).map((mismatch) => mismatch.replace(": it ", " it "));
  const more = mismatches.length - named.length;
  return `${MISMATCH_INTRO} in ${mismatches.length} places: ${named.join("; ")}${more > 0 ? `; and ${more} more` : ""}.`;
}

export const MISMATCH_INTRO = "The structuredContent does not match the tool's outputSchema";
