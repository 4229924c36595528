import { defineEntry } from "./redact-deep.js";

/**
 * How deep JSON from elsewhere (a server's message, a model's tool-call arguments) may nest
 * before mcpterm stops reading it. JSON.parse follows any depth, but what reads the value after
 * it recurses: the SDK's checks, JSON.stringify, schema validation, the redaction walks, the
 * trace. A hostile server's result or a model's arguments nested tens of thousands deep ran them
 * out of stack ("Maximum call stack size exceeded"): the call failed, or the whole run, without a
 * word about why. Real messages nest a few dozen levels at most; a JSON Schema or an AST a few more.
 */
export const MAX_NESTING = 256;

/** What stands where a message nested deeper than MAX_NESTING, in place of what was there. */
export const TOO_DEEP_TO_READ = `[nested deeper than ${MAX_NESTING} levels: left out]`;

/**
 * `message` as it is when it nests no deeper than MAX_NESTING (the same object: nothing copied),
 * or a copy with each object or array past that depth replaced by TOO_DEEP_TO_READ. The check
 * stops at the first level too deep, and most messages are a few dozen values.
 */
export function withinNesting<T>(message: T): T {
  return nestsDeeperThan(message, MAX_NESTING) ? (cutBelow(message, MAX_NESTING) as T) : message;
}

/**
 * Whether an object or array lies below `limit` levels of objects and arrays. It recurses at most
 * `limit` deep, whatever the value's depth, and allocates nothing on the way.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (limit === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) if (nestsDeeperThan(item, limit - 1)) return true;
    return false;
  }
  const object = value as Record<string, unknown>;
  for (const key in object)
    if (Object.hasOwn(object, key) && nestsDeeperThan(object[key], limit - 1)) return true;
  return false;
}

/** A copy of `value` with what lies `levels` deep or more replaced; recursion stays within `levels`. */
function cutBelow(value: unknown, levels: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (levels === 0) return TOO_DEEP_TO_READ;
  if (Array.isArray(value)) return value.map((item: unknown) => cutBelow(item, levels - 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) defineEntry(copy, key, cutBelow(item, levels - 1));
  return copy;
}
