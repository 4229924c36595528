import { redactDeep } from "./redact-deep.js";

/**
 * Serializes a record with every secret removed. Each string is redacted before serializing
 * (so a secret that JSON would escape is still found), then the whole line (so `"password":
 * "…"` pairs split across a key and its value are caught too). If redacting the line would
 * break its JSON, the per-string result is kept.
 */
export function redactedLine(record: object, redact: (text: string) => string): string {
  const line = JSON.stringify(redactDeep(record, redact));
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
export function redactedPretty(record: object, redact: (text: string) => string): string {
  return JSON.stringify(JSON.parse(redactedLine(record, redact)), null, 2);
}
