import { redactDeep } from "./redact-deep.js";
import { sanitizeForTerminal } from "./sanitize-terminal.js";
import { REDACT_MARGIN } from "./tool-description.js";
import { groupedNumber } from "../text/grouped-number.js";

/**
 * Most of one text inside an input schema (a property's description or title, an enum value, a
 * default) the model is sent. Real ones are a sentence or two; a long one is padding that hides
 * instructions, like an overlong tool description.
 */
export const MAX_SCHEMA_TEXT_CHARS = 1_000;

export interface ModelSchema {
  /** The schema the model is sent: every text in it cleaned, redacted and capped. */
  schema: Record<string, unknown>;
  /** What was done to it, in words, beside the description's notes; empty when nothing was. */
  notes: string[];
}

/**
 * A tool's input schema as the model may read it. The model reads the whole schema, not only
 * the description, so every string in it is treated like the description: characters that hide
 * text removed, secrets redacted, overlong texts cut. Property names are left as they are: the
 * arguments the model writes must still match the schema the server checks. Numbers, booleans
 * and structure are untouched, so arguments are still validated against the server's own schema.
 */
export function schemaForModel(
  schema: Record<string, unknown>,
  redact: (text: string) => string = (text) => text,
): ModelSchema {
  const counts = { hidden: 0, cut: 0, redacted: 0 };
  const clean = (text: string): string => {
    const visible = sanitizeForTerminal(text);
    counts.hidden += text.length - visible.length;
    const kept = visible.slice(0, MAX_SCHEMA_TEXT_CHARS + REDACT_MARGIN);
    const redacted = redact(kept);
    if (redacted !== kept) counts.redacted += 1;
    if (visible.length <= MAX_SCHEMA_TEXT_CHARS && redacted.length <= MAX_SCHEMA_TEXT_CHARS) return redacted;
    counts.cut += 1;
    return `${redacted.slice(0, MAX_SCHEMA_TEXT_CHARS)}… [cut]`;
  };
  const cleaned = redactDeep(schema, clean);
  const notes: string[] = [];
  if (counts.hidden > 0)
    notes.push(`${counts.hidden} invisible or control characters removed from its input schema`);
  if (counts.redacted > 0) notes.push(`secrets removed from ${counts.redacted} texts in its input schema`);
  if (counts.cut > 0)
    notes.push(
      `${counts.cut} texts in its input schema cut to ${groupedNumber(MAX_SCHEMA_TEXT_CHARS)} characters before the model saw them`,
    );
  return { schema: cleaned, notes };
}

/** The largest input schema offered to the model, as JSON; real ones are a few kilobytes. */
export const MAX_SCHEMA_CHARS = 64 * 1024;
/** The longest property name offered; real ones are a word or three. */
const MAX_PROPERTY_NAME_CHARS = 64;
/**
 * The deepest input schema offered, in JSON levels (each nested schema takes two or three:
 * `properties`, the name, `items`): real ones are a few levels. One cut where it was too deep to
 * read (policy/nesting-limit.ts) holds a string where a schema must be, which an endpoint that
 * checks schemas refuses, and with it every request of the session.
 */
export const MAX_SCHEMA_DEPTH = 64;

/**
 * Why a tool's input schema must not reach the model at all, or undefined. Property names cannot
 * be cleaned like other texts (the model's arguments must match the names the server checks), so
 * a name that hides text, holds a secret or is a paragraph long withholds the tool; so does a
 * schema too large to be anything but padding.
 */
export function schemaWithholdReason(
  schema: Record<string, unknown>,
  redact: (text: string) => string = (text) => text,
): string | undefined {
  const size = JSON.stringify(schema).length;
  if (size > MAX_SCHEMA_CHARS)
    return `its input schema is ${groupedNumber(size)} characters, more than ${groupedNumber(MAX_SCHEMA_CHARS)}`;
  if (deeperThan(schema, MAX_SCHEMA_DEPTH))
    return `its input schema is nested deeper than ${MAX_SCHEMA_DEPTH} levels`;
  for (const name of propertyNames(schema)) {
    if (sanitizeForTerminal(name) !== name)
      return "a property name in its input schema holds hidden characters";
    if (name.length > MAX_PROPERTY_NAME_CHARS)
      return `a property name in its input schema is ${name.length} characters long`;
    if (redact(name) !== name) return "a property name in its input schema holds a secret";
  }
  return undefined;
}

/** Every property name at any depth: the keys of `properties` objects and the `required` entries. */
function propertyNames(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((item: unknown) => propertyNames(item));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => {
    let own: string[] = [];
    if (key === "properties" && typeof item === "object" && item !== null && !Array.isArray(item))
      own = Object.keys(item);
    else if (key === "required" && Array.isArray(item))
      own = item.filter((entry: unknown): entry is string => typeof entry === "string");
    return [...own, ...propertyNames(item)];
  });
}

/** Whether `value` holds objects or arrays nested more than `levels` deep. */
function deeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (levels === 0) return true;
  const items: unknown[] = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
  return items.some((item) => deeperThan(item, levels - 1));
}
