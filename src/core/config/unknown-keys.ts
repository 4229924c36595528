import type { JsonObject } from "./config-fields.js";
import { nearestKey } from "./nearest-key.js";

/** The keys one object of mcp.config.json may hold, and how strictly the others are reported. */
export interface KeyRule {
  /** The keys mcpterm reads there. */
  known: readonly string[];
  /** Keys other MCP clients write there, which load without a word. */
  others?: readonly string[];
  /**
   * Report only keys that look like a misspelled known key. For places where other clients add
   * keys of their own that change with their versions (a server entry), a key that resembles
   * none of mcpterm's is theirs, not a typo.
   */
  nearMissesOnly?: boolean;
}

/**
 * One sentence per key mcpterm will ignore in `object` (found at `path`, "" for the top level):
 * a misspelled key silently drops what it was meant to say, such as "disabled" or "excludeTools".
 */
export function unknownKeySentences(object: JsonObject, path: string, rule: KeyRule): string[] {
  const where = path === "" ? "at the top level" : `in ${path}`;
  const sentences: string[] = [];
  for (const key of Object.keys(object)) {
    if (rule.known.includes(key) || rule.others?.includes(key)) continue;
    const nearest = nearestKey(key, rule.known);
    const ignored = `unknown key ${JSON.stringify(key)} ${where} is ignored`;
    if (nearest !== undefined) sentences.push(`${ignored}; did you mean ${JSON.stringify(nearest)}?`);
    else if (!rule.nearMissesOnly) {
      sentences.push(`${ignored}; ${readsThere(rule.known)}.`);
    }
  }
  return sentences;
}

function readsThere(keys: readonly string[]): string {
  const [only, ...more] = keys;
  if (more.length === 0) return `the only key mcpterm reads there is ${only ?? "none"}`;
  return `the keys mcpterm reads there are ${keys.slice(0, -1).join(", ")} and ${keys.at(-1) ?? ""}`;
}
