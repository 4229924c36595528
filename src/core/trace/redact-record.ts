/**
 * Serializes a record with every secret removed. Each string is redacted before serializing
 * (so a secret that JSON would escape is still found), then the whole line (so `"password":
 * "…"` pairs split across a key and its value are caught too). If redacting the line would
 * break its JSON, the per-string result is kept.
 */
export function redactedLine(record: object, redact: (text: string) => string): string {
  const line = JSON.stringify(redactStrings(record, redact));
  const whole = redact(line);
  if (whole === line) return line;
  try {
    JSON.parse(whole);
    return whole;
  } catch {
    return line;
  }
}

function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactStrings(item, redact);
    return out;
  }
  return value;
}
