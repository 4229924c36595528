import { canonicalJson } from "./canonical-json.js";

/** How many identical calls (same tool, same arguments) a turn may make before it is stopped. */
export const DEFAULT_REPEAT_LIMIT = 5;

/**
 * Counts identical tool calls within a turn, so a model stuck in a loop is stopped instead of
 * burning steps. Arguments are compared by value: key order and spacing do not matter.
 */
export class RepeatDetector {
  private readonly counts = new Map<string, number>();

  constructor(readonly limit = DEFAULT_REPEAT_LIMIT) {}

  /** Records one call and returns how many times this exact call has now been made. */
  record(tool: string, args: unknown): number {
    const key = `${tool}\u0000${canonicalJson(args)}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }
}
