import { ConfigError } from "../errors.js";
import { isTier, TIERS, type Tier } from "../policy/tiers.js";
import { MAX_TIMER_MS } from "../max-timer.js";

export type JsonObject = Record<string, unknown>;

/** How a JSON value reads in "…, got a number." */
export function describeJsonValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return value ? "true" : "false";
  return typeof value === "object" ? "an object" : typeof value;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `mcpServers.filesystem`, or `mcpServers["my server"]` when the key is not a plain word. */
export function keyPath(parent: string, key: string): string {
  const segment = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
  if (parent === "") return segment;
  return segment.startsWith('"') ? `${parent}[${segment}]` : `${parent}.${segment}`;
}

const TIER_LIST = TIERS.join(", ");

/**
 * Reads typed values out of parsed JSON and throws a one-sentence `ConfigError` naming the file,
 * the key path and what was expected. Keys that are absent (or null) read as undefined, so every
 * mcpterm key stays optional for files written for other MCP clients.
 */
export class ConfigFieldReader {
  /** "<file>: <sentence>" for what loads but deserves a word, e.g. a key mcpterm ignores. */
  readonly warnings: string[] = [];

  constructor(private readonly fileLabel: string) {}

  warn(sentence: string): void {
    this.warnings.push(`${this.fileLabel}: ${sentence}`);
  }

  fail(path: string, expected: string, got: string): never {
    return this.error(`${path} must be ${expected}, got ${got}.`);
  }

  /** Throws "<file>: <sentence>"; `sentence` starts with the key path and ends with a period. */
  error(sentence: string): never {
    throw new ConfigError(`${this.fileLabel}: ${sentence}`);
  }

  object(value: unknown, path: string): JsonObject {
    if (!isJsonObject(value)) this.fail(path, "an object", describeJsonValue(value));
    return value;
  }

  optionalObject(parent: JsonObject, key: string, path: string): JsonObject | undefined {
    const value = parent[key];
    return value == null ? undefined : this.object(value, keyPath(path, key));
  }

  optionalString(parent: JsonObject, key: string, path: string): string | undefined {
    const value = parent[key];
    if (value == null) return undefined;
    if (typeof value !== "string") this.fail(keyPath(path, key), "a string", describeJsonValue(value));
    return value;
  }

  optionalBoolean(parent: JsonObject, key: string, path: string): boolean | undefined {
    const value = parent[key];
    if (value == null) return undefined;
    if (typeof value !== "boolean") {
      this.fail(keyPath(path, key), "true or false", describeJsonValue(value));
    }
    return value;
  }

  optionalPositiveInteger(parent: JsonObject, key: string, path: string): number | undefined {
    const value = parent[key];
    if (value == null) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
      const got = typeof value === "number" ? String(value) : describeJsonValue(value);
      this.fail(keyPath(path, key), "a positive whole number", got);
    }
    return value;
  }

  /**
   * A time in milliseconds: a positive whole number a timer can wait for (MAX_TIMER_MS, about
   * 24.8 days). A larger one would fire at once, the opposite of what "practically unlimited" meant.
   */
  optionalMilliseconds(parent: JsonObject, key: string, path: string): number | undefined {
    const value = this.optionalPositiveInteger(parent, key, path);
    if (value !== undefined && value > MAX_TIMER_MS)
      this.fail(keyPath(path, key), `at most ${MAX_TIMER_MS} (about 24.8 days)`, String(value));
    return value;
  }

  /** A number from `min` to `max`, e.g. a temperature or a price. */
  optionalNumber(
    parent: JsonObject,
    key: string,
    path: string,
    range: { min: number; max: number },
  ): number | undefined {
    const value = parent[key];
    if (value == null) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value) || value < range.min || value > range.max) {
      const got = typeof value === "number" ? String(value) : describeJsonValue(value);
      this.fail(keyPath(path, key), `a number from ${range.min} to ${range.max}`, got);
    }
    return value;
  }

  optionalStringArray(parent: JsonObject, key: string, path: string): string[] | undefined {
    const value = parent[key];
    if (value == null) return undefined;
    const here = keyPath(path, key);
    if (!Array.isArray(value)) this.fail(here, "an array of strings", describeJsonValue(value));
    return value.map((item: unknown, index) => {
      if (typeof item !== "string") this.fail(`${here}[${index}]`, "a string", describeJsonValue(item));
      return item;
    });
  }

  optionalStringRecord(parent: JsonObject, key: string, path: string): Record<string, string> | undefined {
    const value = parent[key];
    if (value == null) return undefined;
    const here = keyPath(path, key);
    if (!isJsonObject(value)) {
      this.fail(here, "an object of string values", describeJsonValue(value));
    }
    const result: Record<string, string> = {};
    for (const [name, item] of Object.entries(value)) {
      if (typeof item !== "string") this.fail(keyPath(here, name), "a string", describeJsonValue(item));
      result[name] = item;
    }
    return result;
  }

  optionalTierArray(parent: JsonObject, key: string, path: string): Tier[] | undefined {
    const value = parent[key];
    if (value == null) return undefined;
    const here = keyPath(path, key);
    if (!Array.isArray(value)) this.fail(here, `an array of tiers (${TIER_LIST})`, describeJsonValue(value));
    return value.map((item: unknown, index) => this.tier(item, `${here}[${index}]`));
  }

  optionalTierRecord(parent: JsonObject, key: string, path: string): Record<string, Tier> | undefined {
    const value = parent[key];
    if (value == null) return undefined;
    const here = keyPath(path, key);
    if (!isJsonObject(value)) {
      this.fail(here, "an object mapping tool names to tiers", describeJsonValue(value));
    }
    const result: Record<string, Tier> = {};
    for (const [name, item] of Object.entries(value)) result[name] = this.tier(item, keyPath(here, name));
    return result;
  }

  oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T {
    if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
    const got = typeof value === "string" ? JSON.stringify(value) : describeJsonValue(value);
    return this.fail(path, `one of ${allowed.join(", ")}`, got);
  }

  private tier(value: unknown, path: string): Tier {
    if (isTier(value)) return value;
    return this.oneOf(value, TIERS, path);
  }
}
