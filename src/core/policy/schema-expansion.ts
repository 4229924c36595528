import { resolveLocalRef } from "./json-pointer.js";

/**
 * How many schemas a JSON Schema becomes once each local `$ref` stands for what it names, as a
 * validator builds it: 1,000 `$ref`s to one definition of 10,000 schemas are ten million, and a
 * chain of definitions each naming the next twice doubles with every link. A hostile server's
 * schema of a few hundred kilobytes so took ajv four gigabytes and two minutes. A schema past
 * MAX_EXPANDED_SCHEMAS is not compiled at all: the server still checks what it is sent.
 */
export const MAX_EXPANDED_SCHEMAS = 200_000;

/** Deeper than this (nesting and references together) a schema counts as too large: it would
 * take a validator's stack as well as its memory. */
const MAX_DEPTH = 512;

/** Keywords whose values are data, not schemas: their size is the value's, not a validator's. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "description", "title"]);

/** The schemas `schema` expands to, counted up to `cap` (anything past it reads cap + 1). */
export function expandedSchemaCount(schema: unknown, cap = MAX_EXPANDED_SCHEMAS): number {
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const count = (node: unknown, depth: number): number => {
    if (typeof node !== "object" || node === null) return 0;
    if (depth > MAX_DEPTH) return cap + 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    // A recursive reference is one function a validator calls again, not a copy.
    if (open.has(node)) return 1;
    open.add(node);
    let total = Array.isArray(node) ? 0 : 1;
    for (const [key, value] of Object.entries(node)) {
      if (total > cap) break;
      if (DATA_KEYWORDS.has(key) && !Array.isArray(node)) continue;
      if (key === "$ref" && typeof value === "string")
        total += count(resolveLocalRef(schema, value), depth + 1);
      else total += count(value, depth + 1);
    }
    open.delete(node);
    const size = Math.min(total, cap + 1);
    sizes.set(node, size);
    return size;
  };
  return count(schema, 0);
}

/** Whether a validator should be spared `schema`: see MAX_EXPANDED_SCHEMAS. */
export function isTooLargeToCheck(schema: unknown): boolean {
  return expandedSchemaCount(schema) > MAX_EXPANDED_SCHEMAS;
}
