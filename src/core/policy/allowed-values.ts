import { pointerToken, resolveLocalRef } from "./json-pointer.js";
import { revealControls } from "./sanitize-terminal.js";

/** How many of an enum's values a message lists before saying how many more there are. */
const LISTED_VALUES = 12;
/** How much of each listed value is shown. */
const LISTED_VALUE_CHARS = 80;

/**
 * One of ajv's errors with the values an `enum` allows written after "one of the allowed
 * values", where the schema at that place can be found by its properties and items: whoever
 * fixes the call (a person at `mcpterm call`, the model reading why its call failed) needs them.
 */
export function withAllowedValues(error: string, schema: Record<string, unknown>): string {
  const match = /^data(\S*) must be equal to one of the allowed values$/.exec(error);
  if (!match) return error;
  const allowed = schemaAt(schema, match[1] ?? "")?.enum;
  if (!Array.isArray(allowed) || allowed.length === 0) return error;
  // A server's values: each cut short, and nothing in them that draws as nothing or drives a terminal.
  const listed = allowed
    .slice(0, LISTED_VALUES)
    .map((value) => revealControls(cutShort(JSON.stringify(value))));
  const more = allowed.length > LISTED_VALUES ? `, and ${allowed.length - LISTED_VALUES} more` : "";
  return `${error}: ${listed.join(", ")}${more}`;
}

/**
 * The schema a JSON pointer into the value leads to, through properties, items and the
 * schema's own `$ref`s (`#/$defs/kind`); undefined past anything else.
 */
function schemaAt(schema: Record<string, unknown>, pointer: string): Record<string, unknown> | undefined {
  let node: unknown = hasEnum(schema) ? schema : followRefs(schema, schema);
  for (const raw of pointer.split("/").slice(1)) {
    const name = pointerToken(raw);
    if (typeof node !== "object" || node === null) return undefined;
    const { properties, items, prefixItems } = node as Record<string, unknown>;
    const index = /^\d+$/.test(name) ? Number(name) : undefined;
    if (typeof properties === "object" && properties !== null && Object.hasOwn(properties, name))
      node = (properties as Record<string, unknown>)[name];
    else if (index !== undefined && Array.isArray(prefixItems) && index < prefixItems.length)
      node = prefixItems[index];
    else if (index !== undefined && typeof items === "object" && items !== null && !Array.isArray(items))
      node = items;
    else return undefined;
    // A node's own enum is what ajv checked; its $ref is followed only when it has none.
    if (!hasEnum(node)) node = followRefs(node, schema);
  }
  return typeof node === "object" && node !== null ? (node as Record<string, unknown>) : undefined;
}

function cutShort(text: string): string {
  return text.length <= LISTED_VALUE_CHARS ? text : `${text.slice(0, LISTED_VALUE_CHARS - 1)}…`;
}

function hasEnum(node: unknown): boolean {
  return typeof node === "object" && node !== null && Array.isArray((node as { enum?: unknown }).enum);
}

/** Refs followed in a row before giving up: a schema whose refs loop leads nowhere. */
const MAX_REF_HOPS = 8;

/** `node`, or what its local `$ref` names in `root`, as often as one names another. */
function followRefs(node: unknown, root: Record<string, unknown>): unknown {
  let followed = node;
  for (let hop = 0; hop < MAX_REF_HOPS; hop += 1) {
    const ref =
      typeof followed === "object" && followed !== null ? (followed as { $ref?: unknown }).$ref : undefined;
    if (typeof ref !== "string") return followed;
    followed = resolveLocalRef(root, ref);
  }
  return undefined;
}
