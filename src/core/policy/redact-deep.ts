/** A copy of `value` with `redact` applied to every string inside it, at any depth. */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  return redactValue(value, redact) as T;
}

function redactValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = redactValue(item, redact);
    return copy;
  }
  return value;
}
