import type { TierDecision } from "./tiers.js";
import { splitWords } from "./tier-from-name.js";

/** Words that, as a value the model may pick (`mode: "delete"`, `action: "remove_annotations"`), destroy. */
const DESTRUCTIVE_VALUES = new Set(
  "delete remove rm rmdir drop destroy purge wipe erase truncate clear prune discard hard force overwrite reset revoke uninstall kill terminate".split(
    " ",
  ),
);

/**
 * Arguments whose values choose what a read returns rather than what the tool does: a workflow-run
 * filter whose `event` may be "delete" lists runs, it deletes nothing.
 */
const SELECTING_WORDS = new Set(["filter", "filters", "sort", "order"]);

/** Deep enough for any real schema; a schema nested deeper is not read further. */
const MAX_DEPTH = 32;

const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"] as const;
const DEFINITIONS = ["$defs", "definitions"] as const;

/**
 * A tool whose arguments let the model choose a destructive mode is `dangerous`, whatever its name
 * says: `git_tag` with `mode: ["list", "create", "delete"]` deletes tags. Every `enum` and `const`
 * string anywhere in the input schema counts (a word of it, so "delete_pending" counts), except
 * under arguments that filter or sort what is read.
 */
export function tierFromArguments(inputSchema: unknown): TierDecision | undefined {
  const found = destructiveValue(inputSchema, "", 0);
  if (!found) return undefined;
  return { tier: "dangerous", reason: `argument ${found.path || "(root)"}: ${found.value}` };
}

/** The first destructive value in the schema, with the argument that holds it (`commands[].action`). */
function destructiveValue(
  schema: unknown,
  path: string,
  depth: number,
): { path: string; value: string } | undefined {
  if (!isObject(schema) || depth > MAX_DEPTH) return undefined;
  if (!splitWords(path).some((word) => SELECTING_WORDS.has(word))) {
    const values: unknown[] = [
      ...(Array.isArray(schema.enum) ? (schema.enum as unknown[]) : []),
      schema.const,
    ];
    const value = values.find(
      (candidate): candidate is string =>
        typeof candidate === "string" && splitWords(candidate).some((word) => DESTRUCTIVE_VALUES.has(word)),
    );
    if (value !== undefined) return { path, value };
  }
  return children(schema, path)
    .map(([child, childPath]) => destructiveValue(child, childPath, depth + 1))
    .find((found) => found !== undefined);
}

/** Each subschema with the argument path it describes; definitions are named by their key. */
function children(schema: Record<string, unknown>, path: string): Array<[unknown, string]> {
  const result: Array<[unknown, string]> = [];
  for (const [name, child] of entries(schema.properties))
    result.push([child, path ? `${path}.${name}` : name]);
  for (const key of DEFINITIONS) for (const [name, child] of entries(schema[key])) result.push([child, name]);
  result.push([schema.items, `${path}[]`], [schema.additionalProperties, path]);
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) for (const child of list) result.push([child, path]);
  }
  return result;
}

function entries(value: unknown): Array<[string, unknown]> {
  return isObject(value) ? Object.entries(value) : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
