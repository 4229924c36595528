import { resolveLocalRef } from "./json-pointer.js";

/**
 * How many schemas a JSON Schema becomes once each `$ref` stands for what it names, as a
 * validator builds it: 1,000 `$ref`s to one definition of 10,000 schemas are ten million, and a
 * chain of definitions each naming the next twice doubles with every link. A hostile server's
 * schema of a few hundred kilobytes so took ajv four gigabytes and two minutes. A schema past
 * MAX_EXPANDED_SCHEMAS is not compiled at all: the server still checks what it is sent.
 */
export const MAX_EXPANDED_SCHEMAS = 200_000;

/**
 * Deeper than this (nesting and references together) a schema counts as too large: it would
 * take a validator's stack as well as its memory.
 */
const MAX_DEPTH = 512;

/** Keywords whose values are data, not schemas: their size is the value's, not a validator's. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "description", "title"]);
/** Keywords whose values map names to schemas: a name there may be spelt like a keyword. */
export const SCHEMA_MAPS: readonly string[] = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
];

/** The base every relative `$id` and `$ref` of a schema without its own absolute `$id` resolves against. */
const DOCUMENT_BASE = "mcpterm-schema:/document";

/** The schemas `schema` expands to, counted up to `cap` (anything past it reads cap + 1). */
export function expandedSchemaCount(schema: unknown, cap = MAX_EXPANDED_SCHEMAS): number {
  const targets = new RefTargets(schema);
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const count = (node: unknown, depth: number, names = false): number => {
    if (typeof node !== "object" || node === null) return 0;
    if (depth > MAX_DEPTH) return cap + 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    // A recursive reference is one function a validator calls again, not a copy.
    if (open.has(node)) return 1;
    open.add(node);
    let total = Array.isArray(node) || names ? 0 : 1;
    for (const [key, value] of Object.entries(node)) {
      if (total > cap) break;
      if (!names && !Array.isArray(node) && DATA_KEYWORDS.has(key)) continue;
      if (!names && key === "$ref" && typeof value === "string")
        total += count(targets.resolve(node, value), depth + 1);
      else total += count(value, depth + 1, !names && SCHEMA_MAPS.includes(key));
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

/**
 * What the `$ref`s of one schema document name, as a validator finds them: a JSON pointer
 * (`#/$defs/a`), an anchor (`#node`, `$anchor`), or another resource of the document by its
 * `$id` (`https://example.com/item.json#/$defs/a`, `item.json`), each against the base URI of
 * where it is written. Remote documents are never fetched: what is not in this one is nothing.
 */
class RefTargets {
  /** Each object's base URI. */
  private readonly bases = new Map<object, string>();
  /** Resources by their URI without fragment, and anchors by their URI with it. */
  private readonly byUri = new Map<string, unknown>();

  constructor(private readonly document: unknown) {
    this.index(document, DOCUMENT_BASE, 0);
  }

  resolve(from: object, ref: string): unknown {
    const base = this.bases.get(from) ?? DOCUMENT_BASE;
    let target: URL;
    try {
      target = new URL(ref, base);
    } catch {
      return undefined;
    }
    const fragment = target.hash.slice(1);
    target.hash = "";
    const resource = target.href === DOCUMENT_BASE ? this.document : this.byUri.get(target.href);
    if (fragment === "" || fragment.startsWith("/")) return resolveLocalRef(resource, `#${fragment}`);
    return this.byUri.get(`${target.href}#${decodeURIComponent(fragment)}`);
  }

  private index(node: unknown, base: string, depth: number): void {
    if (typeof node !== "object" || node === null || depth > MAX_DEPTH || this.bases.has(node)) return;
    let here = base;
    if (!Array.isArray(node)) {
      const record = node as Record<string, unknown>;
      if (typeof record.$id === "string") {
        try {
          const id = new URL(record.$id, base);
          id.hash = "";
          here = id.href;
          this.byUri.set(here, node);
        } catch {
          // An $id that is no URI names nothing.
        }
      }
      for (const key of ["$anchor", "$dynamicAnchor"] as const) {
        const anchor = record[key];
        if (typeof anchor === "string") this.byUri.set(`${here}#${anchor}`, node);
      }
    }
    this.bases.set(node, here);
    for (const value of Object.values(node)) this.index(value, here, depth + 1);
  }
}
