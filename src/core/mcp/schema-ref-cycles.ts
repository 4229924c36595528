import { member } from "./json-path.js";

/**
 * `$ref`s that lead back to themselves while checking the same value (`"a": { "$ref": "#/$defs/a" }`,
 * or through `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`): checking a value against
 * them never ends, and a validator runs out of stack ("Maximum call stack size exceeded"). A
 * recursive schema that steps into a property or an item first (a tree node listing its
 * children) ends where the value does, and is not reported.
 */

/** Keywords whose schemas apply to the same value as the schema holding them. */
const SAME_VALUE_ONE = ["not", "if", "then", "else"];
const SAME_VALUE_LISTS = ["allOf", "anyOf", "oneOf"];
/** Deeper than this the document is not searched for `$ref`s (as the schema walk stops). */
const MAX_DEPTH = 64;
/** Most `$ref`s followed in one document: a hostile schema could hold millions. */
const MAX_REFS = 1_000;

export interface RefCycle {
  /** The JSON path of the first `$ref` in the cycle, under the caller's root. */
  path: string;
  /** The references in the order they are followed, back to the first. */
  chain: string[];
}

/** Each cycle of `$ref`s in `schema` once, at the first of its `$ref`s found walking the document. */
export function refCycles(schema: unknown, root: string): RefCycle[] {
  const refs: Array<{ path: string; ref: string }> = [];
  collectRefs(schema, root, 0, refs);
  const cycles: RefCycle[] = [];
  const reported = new Set<string>();
  for (const { path, ref } of refs) {
    const chain = cycleFrom(schema, ref);
    if (chain === undefined) continue;
    const members = [...new Set(chain)].sort().join("\n");
    if (reported.has(members)) continue;
    reported.add(members);
    cycles.push({ path: `${path}.$ref`, chain });
  }
  return cycles;
}

function collectRefs(
  value: unknown,
  at: string,
  depth: number,
  refs: Array<{ path: string; ref: string }>,
): void {
  if (depth > MAX_DEPTH || refs.length >= MAX_REFS || typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => collectRefs(item, `${at}[${index}]`, depth + 1, refs));
    return;
  }
  const record = value as Record<string, unknown>;
  if (typeof record.$ref === "string" && record.$ref.startsWith("#"))
    refs.push({ path: at, ref: record.$ref });
  for (const [key, inner] of Object.entries(record))
    if (key !== "$ref") collectRefs(inner, `${at}${member(key)}`, depth + 1, refs);
}

/**
 * The chain of references from `ref` back to it, each reached from the one before on the same
 * value, or undefined when `ref` is not on such a loop. Depth-first, bounded.
 */
function cycleFrom(schema: unknown, ref: string): string[] | undefined {
  // A reference explored once without coming back to `ref` never will from elsewhere.
  const explored = new Set<string>([ref]);
  const search = (chain: string[]): string[] | undefined => {
    if (chain.length > MAX_DEPTH) return undefined;
    const last = chain.at(-1) ?? ref;
    for (const next of sameValueRefs(resolvePointer(schema, last), 0)) {
      if (next === ref) return [...chain, next];
      if (explored.has(next)) continue;
      explored.add(next);
      const found = search([...chain, next]);
      if (found) return found;
    }
    return undefined;
  };
  return search([ref]);
}

/** The local `$ref`s a schema applies to the value it checks: its own and those of its same-value keywords. */
function sameValueRefs(schema: unknown, depth: number): string[] {
  if (depth > MAX_DEPTH || typeof schema !== "object" || schema === null || Array.isArray(schema)) return [];
  const record = schema as Record<string, unknown>;
  const own = typeof record.$ref === "string" && record.$ref.startsWith("#") ? [record.$ref] : [];
  const inner = [
    ...SAME_VALUE_ONE.map((key) => record[key]),
    ...SAME_VALUE_LISTS.flatMap((key) => (Array.isArray(record[key]) ? (record[key] as unknown[]) : [])),
  ];
  return [...own, ...inner.flatMap((child) => sameValueRefs(child, depth + 1))];
}

/** `#/$defs/a` in `document` (RFC 6901, in a URI fragment); undefined for an anchor or a path that is not there. */
function resolvePointer(document: unknown, ref: string): unknown {
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === "") return document;
  if (!fragment.startsWith("/")) return undefined;
  let node = document;
  for (const token of fragment.slice(1).split("/")) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
