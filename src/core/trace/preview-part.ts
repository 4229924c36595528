/**
 * A record too large to keep whole is kept as a preview: the first `maxRecordChars` of its
 * JSON. The preview is made from the value after the record's redaction has read it, so every
 * string is read whole, as it was sent, before anything is cut; only the part of the value the
 * preview can reach is kept for that, so a value of any size costs about as much as the preview.
 */

/** Longer than any secret's text (a 4096-bit private key is about 3,300 characters). */
const SECRET_MAX_CHARS = 8192;
/** Nesting a preview follows; deeper, a value says so instead (the walks that redact it recurse). */
const MAX_DEPTH = 100;
export const TOO_DEEP = "[deeper than the trace keeps]";

/**
 * The part of `value` whose JSON reaches at least `maxChars` + SECRET_MAX_CHARS characters (or
 * all of it), as a value: what comes after is left out, and a long string is cut there. A secret
 * cut in two there lies past what the preview shows.
 */
export function previewPart(value: unknown, maxChars: number): unknown {
  const budget = { left: maxChars + SECRET_MAX_CHARS };
  return part(value, budget, 0);
}

/**
 * `value` whole, but for what lies deeper than MAX_DEPTH, which says so: for a record the walks
 * that redact it cannot follow (a server's result nested thousands deep).
 */
export function withinDepth(value: unknown): unknown {
  return part(value, { left: Number.POSITIVE_INFINITY }, 0);
}

function part(value: unknown, budget: { left: number }, depth: number): unknown {
  if (typeof value === "string") {
    // Two quotes and a comma; an escape only makes the JSON longer, so more is kept, never less.
    const kept = value.length > budget.left ? value.slice(0, Math.max(budget.left, 0)) : value;
    budget.left -= kept.length + 3;
    return kept;
  }
  if (typeof value !== "object" || value === null) {
    budget.left -= 8;
    return value;
  }
  if (depth >= MAX_DEPTH) {
    budget.left -= TOO_DEEP.length + 3;
    return TOO_DEEP;
  }
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value as unknown[]) {
      if (budget.left <= 0) break;
      items.push(part(item, budget, depth + 1));
    }
    return items;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (budget.left <= 0) break;
    budget.left -= key.length + 4;
    // Defined, not assigned: a key named __proto__ (JSON.parse makes one) stays a key.
    Object.defineProperty(copy, key, {
      value: part((value as Record<string, unknown>)[key], budget, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** Marks a record whose `preview` is a value still (previewPart's), to be written as text. */
export const PREVIEW = Symbol("preview");

/**
 * A redacted record line whose `preview` is written as text, cut to `maxChars`: the line was
 * redacted with the preview as a value, so nothing the cut leaves is unread.
 */
export function previewAsText(line: string, maxChars: number): string {
  const record = JSON.parse(line) as { preview?: unknown };
  record.preview = JSON.stringify(record.preview ?? null).slice(0, maxChars);
  return JSON.stringify(record);
}
