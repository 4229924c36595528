/**
 * A record too large to keep whole is kept as a preview: the first `maxRecordChars` of its
 * JSON. The preview is made from the value after the record's redaction has read it, so every
 * string is read whole, as it was sent, before anything is cut; only the part of the value the
 * preview can reach is kept for that, so a value of any size costs about as much as the preview.
 */

import { defineEntry } from "../policy/redact-deep.js";

/** Longer than any secret's text (a 4096-bit private key is about 3,300 characters). */
const SECRET_MAX_CHARS = 8192;
/** Nesting a preview follows; deeper, a value says so instead (the walks that redact it recurse). */
const MAX_DEPTH = 100;
export const TOO_DEEP = "[deeper than the trace keeps]";
/**
 * Where previewPart cut a string or left items out: the end of a string cut short, or an item
 * of its own. The preview ends SECRET_MAX_CHARS before the first one, wherever redaction moved
 * it, so what a cut left of a secret, or a name a value lost, is never shown. It starts with a
 * space, which ends the runs of characters a pattern takes as a secret, so no redaction of what
 * comes before it takes it along.
 */
const CUT = " \u0000[the value goes on]\u0000";
const CUT_IN_JSON = JSON.stringify(CUT).slice(1, -1);

/**
 * The part of `value` whose JSON reaches at least `maxChars` + SECRET_MAX_CHARS characters (or
 * all of it), as a value; where it was cut, it says so (CUT).
 */
export function previewPart(value: unknown, maxChars: number): unknown {
  return part(value, { left: maxChars + SECRET_MAX_CHARS }, 0);
}

/**
 * `value` whole, but for what lies deeper than MAX_DEPTH, which says so: for a record the walks
 * that redact it cannot follow (a server's result nested thousands deep).
 */
export function withinDepth(value: unknown): unknown {
  return part(value, { left: Number.POSITIVE_INFINITY }, 0);
}

/**
 * `value`'s part within the budget of JSON characters, each charged no more than it writes (an
 * escape writes more than the character it stands for): the part reaches at least as far as
 * the budget says, and often further.
 */
function part(value: unknown, budget: { left: number }, depth: number): unknown {
  if (typeof value === "string") {
    if (value.length + 2 <= budget.left) {
      budget.left -= value.length + 2;
      return value;
    }
    const kept = value.slice(0, Math.max(budget.left, 0));
    budget.left = 0;
    return `${kept}${CUT}`;
  }
  if (typeof value !== "object" || value === null) {
    budget.left -= scalarChars(value);
    return value;
  }
  if (depth >= MAX_DEPTH) {
    budget.left -= TOO_DEEP.length + 2;
    return TOO_DEEP;
  }
  budget.left -= 2;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value as unknown[]) {
      if (budget.left <= 0) {
        items.push(CUT);
        break;
      }
      // The comma before each item but the first.
      if (items.length > 0) budget.left -= 1;
      items.push(part(item, budget, depth + 1));
    }
    return items;
  }
  const copy: Record<string, unknown> = {};
  let entries = 0;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    // JSON leaves such an entry out, its name too.
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    if (budget.left <= 0) {
      defineEntry(copy, CUT, null);
      break;
    }
    // The name's quotes and colon, and the comma before each entry but the first.
    budget.left -= key.length + 3 + (entries > 0 ? 1 : 0);
    entries += 1;
    defineEntry(copy, key, part(item, budget, depth + 1));
  }
  return copy;
}

/** What JSON writes for a number, a boolean or null (a number that is not finite is `null`). */
function scalarChars(value: unknown): number {
  if (typeof value === "number") return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === "boolean") return value ? 4 : 5;
  return 4;
}

/** Marks a record whose `preview` is a value still (previewPart's), to be written as text. */
export const PREVIEW = Symbol("preview");

/**
 * A redacted record line whose `preview` is written as text: at most `maxChars` of it, ending
 * SECRET_MAX_CHARS before where previewPart cut, and never inside a character (a surrogate pair).
 */
export function previewAsText(line: string, maxChars: number): string {
  const record = JSON.parse(line) as { preview?: unknown };
  const json = JSON.stringify(record.preview ?? null);
  const cut = json.indexOf(CUT_IN_JSON);
  let end = cut === -1 ? maxChars : Math.min(maxChars, Math.max(0, cut - SECRET_MAX_CHARS));
  const last = json.charCodeAt(end - 1);
  if (end < json.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  record.preview = json.slice(0, end);
  return JSON.stringify(record);
}
