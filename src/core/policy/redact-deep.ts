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

/**
 * redactDeep without the copying where nothing changes: plain objects and arrays whose strings
 * all come back the same are given back as they are (never changed in place), so serializing a
 * record without secrets costs one walk, not a copy of it. Anything else (a Date, a Buffer, a
 * class) is copied as redactDeep copies it, so the JSON of the result is the same either way.
 */
export function redactShared<T>(value: T, redact: (text: string) => string): T {
  return sharedValue(value, redact) as T;
}

function sharedValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value !== "object" || value === null) return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype) return redactValue(value, redact);
    let copy: unknown[] | undefined;
    for (const [index, item] of (value as unknown[]).entries()) {
      const redacted = sharedValue(item, redact);
      if (redacted !== item) copy ??= value.slice(0, index);
      copy?.push(redacted);
    }
    return copy ?? value;
  }
  // A key named __proto__ (JSON.parse makes one) is not kept by redactDeep's copy: copied alike.
  if ((prototype !== Object.prototype && prototype !== null) || Object.hasOwn(value, "__proto__"))
    return redactValue(value, redact);
  const entries = Object.entries(value);
  let copy: Record<string, unknown> | undefined;
  for (const [index, [key, item]] of entries.entries()) {
    const redacted = sharedValue(item, redact);
    if (redacted !== item && copy === undefined) {
      copy = {};
      for (const [before, kept] of entries.slice(0, index)) copy[before] = kept;
    }
    if (copy) copy[key] = redacted;
  }
  return copy ?? value;
}
