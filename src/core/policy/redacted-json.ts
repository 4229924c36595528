import { revealHiddenText } from "./hidden-text.js";
import { redactShared } from "./redact-deep.js";
import { sanitizeForTerminal } from "./sanitize-terminal.js";

/**
 * Serializes a record with every secret removed. Each string is redacted before serializing
 * (so a secret that JSON would escape is still found), then the whole line (so `"password":
 * "…"` pairs split across a key and its value are caught too). If redacting the line would
 * break its JSON, the per-string result is kept.
 */
export function redactedLine(record: unknown, redact: (text: string) => string): string {
  return secondPass(eachStringRedacted(record, redact), redact);
}

/**
 * redactedLine for many records at once, with the same result line for line. The lines' second
 * pass runs over all of them joined, and line by line only when that finds something: a pattern
 * cannot match inside one line for having other lines around it (none is anchored to the start
 * or end of a text, and a line break stands where a line's start or end stood), so when the
 * joined text holds no secret, no line does. Most batches hold none, and one pass costs less
 * than one per line.
 */
export function redactedLines(records: readonly object[], redact: (text: string) => string): string[] {
  const lines = records.map((record) => eachStringRedacted(record, redact));
  if (lines.length < 2) return lines.map((line) => secondPass(line, redact));
  const joined = lines.join("\n");
  return redact(joined) === joined ? lines : lines.map((line) => secondPass(line, redact));
}

/** The record serialized with each string redacted (a secret JSON would escape is still found). */
function eachStringRedacted(record: unknown, redact: (text: string) => string): string {
  return JSON.stringify(redactShared(record, redact));
}

/** The whole line redacted, so a key and its value are seen together; kept as it was if that breaks its JSON. */
function secondPass(line: string, redact: (text: string) => string): string {
  const whole = redact(line);
  if (whole === line) return line;
  try {
    JSON.parse(whole);
    return whole;
  } catch {
    return line;
  }
}

/** redactedLine, indented for a person to read (`mcpterm call --json`, `mcpterm read --json`). */
export function redactedPretty(record: unknown, redact: (text: string) => string): string {
  return JSON.stringify(JSON.parse(redactedLine(record, redact)), null, 2);
}

/**
 * redactedPretty for output whose strings end up on a terminal (`mcpterm tools --json`): every
 * key and string also loses its terminal control sequences and has its invisible characters
 * written out (`⟨U+200B⟩`), so nothing in it can drive the terminal or pass unseen, and two keys
 * that differ only by such a character stay two keys.
 */
export function displayPretty(record: object, redact: (text: string) => string): string {
  return JSON.stringify(forDisplay(JSON.parse(redactedLine(record, redact))), null, 2);
}

function forDisplay(value: unknown): unknown {
  if (typeof value === "string") return displayText(value);
  if (Array.isArray(value)) return value.map(forDisplay);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [displayText(key), forDisplay(item)]));
}

function displayText(text: string): string {
  return sanitizeForTerminal(revealHiddenText(text));
}
