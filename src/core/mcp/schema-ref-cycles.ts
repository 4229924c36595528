import { resolveLocalRef } from "../policy/json-pointer.js";
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

/**
 * Each loop of `$ref`s in `schema` once, at the first `$ref` found walking the document that
 * leads into it. One depth-first walk of the graph of references (each followed once), so a
 * schema of many references costs their number, not its square.
 */
export function refCycles(schema: unknown, root: string): RefCycle[] {
  const refs: Array<{ path: string; ref: string }> = [];
  collectRefs(schema, root, 0, refs);
  const loops = findLoops(
    schema,
    refs.map(({ ref }) => ref),
  );
  const cycles: RefCycle[] = [];
  const reported = new Set<string[]>();
  for (const { path, ref } of refs) {
    const loop = loops.find((chain) => chain.includes(ref));
    if (loop === undefined || reported.has(loop)) continue;
    reported.add(loop);
    // Told from the reference this path makes, round to it again.
    const at = loop.indexOf(ref);
    const chain = [...loop.slice(at, -1), ...loop.slice(0, at), ref];
    cycles.push({ path: `${path}.$ref`, chain });
  }
  return cycles;
}

/** Loops in the graph of references (each reference to those it applies to the same value), one per back edge found. */
function findLoops(schema: unknown, starts: readonly string[]): string[][] {
  const edges = new Map<string, string[]>();
  const next = (ref: string): string[] => {
    let found = edges.get(ref);
    if (found === undefined) {
      found = [...new Set(sameValueRefs(resolveLocalRef(schema, ref), 0))];
      edges.set(ref, found);
    }
    return found;
  };
  const loops: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (ref: string): void => {
    if (done.has(ref) || path.length > MAX_REFS) return;
    const back = path.indexOf(ref);
    if (back !== -1) {
      loops.push([...path.slice(back), ref]);
      return;
    }
    path.push(ref);
    for (const target of next(ref)) visit(target);
    path.pop();
    done.add(ref);
  };
  for (const ref of starts) visit(ref);
  return loops;
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
