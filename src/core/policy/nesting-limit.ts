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
 * walks with a stack of its own, so any depth can be measured; it stops at the first level too
 * deep, and most messages are a few dozen values.
 */
export function withinNesting<T>(message: T): T {
  return nestsDeeperThan(message, MAX_NESTING) ? (cutBelow(message, MAX_NESTING) as T) : message;
}

/** Whether an object or array lies below `limit` levels of objects and arrays. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (typeof next.value !== "object" || next.value === null) continue;
    if (next.depth >= limit) return true;
    for (const item of Object.values(next.value)) {
      if (typeof item === "object" && item !== null) stack.push({ value: item, depth: next.depth + 1 });
    }
  }
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
