/** A copy of `value` with `redact` applied to every string inside it, at any depth. */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  return redactValue(value, redact, NOTHING_MORE) as T;
}

/** What a walk does besides redacting each string (see redactShared). */
export interface WalkOptions {
  /** Handed every key of every object inside, as the walk passes it. */
  seeKey?: (key: string) => void;
  /**
   * What the strings at any depth under `object[key]` are redacted with instead, when that entry
   * says what they are (its name says it holds a secret); undefined keeps the redaction as it is.
   */
  redactUnder?: (
    object: Readonly<Record<string, unknown>>,
    key: string,
  ) => ((text: string) => string) | undefined;
}

const NOTHING_MORE: WalkOptions = {};

function redactValue(value: unknown, redact: (text: string) => string, options: WalkOptions): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact, options));
  if (typeof value === "object" && value !== null) {
    const object = value as Record<string, unknown>;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(object)) {
      options.seeKey?.(key);
      copy[key] = redactValue(object[key], options.redactUnder?.(object, key) ?? redact, options);
    }
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
export function redactShared<T>(
  value: T,
  redact: (text: string) => string,
  options: WalkOptions = NOTHING_MORE,
): T {
  return sharedValue(value, redact, options) as T;
}

function sharedValue(value: unknown, redact: (text: string) => string, options: WalkOptions): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value !== "object" || value === null) return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  // Index loops over keys, not entries: this walks every trace record, and a pair per
  // property was most of what it allocated.
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype) return redactValue(value, redact, options);
    const items = value as unknown[];
    let copy: unknown[] | undefined;
    for (let index = 0; index < items.length; index += 1) {
      const item = items[index];
      const redacted = sharedValue(item, redact, options);
      if (redacted !== item) copy ??= items.slice(0, index);
      copy?.push(redacted);
    }
    return copy ?? value;
  }
  // A key named __proto__ (JSON.parse makes one) is not kept by redactDeep's copy: copied alike.
  if ((prototype !== Object.prototype && prototype !== null) || Object.hasOwn(value, "__proto__"))
    return redactValue(value, redact, options);
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  let copy: Record<string, unknown> | undefined;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    options.seeKey?.(key);
    const item = object[key];
    const redacted = sharedValue(item, options.redactUnder?.(object, key) ?? redact, options);
    if (redacted !== item && copy === undefined) {
      copy = {};
      for (const before of keys.slice(0, index)) copy[before] = object[before];
    }
    if (copy) copy[key] = redacted;
  }
  return copy ?? value;
}

/**
 * A copy of `value` with the keys `rename` changes renamed, at any depth; objects and arrays
 * holding none are given back as they are. A renamed key that meets one already there gets a
 * number (`[REDACTED] 2`), so no entry is lost to another.
 */
export function renameKeys<T>(value: T, rename: (key: string) => string): T {
  return renamedValue(value, rename) as T;
}

function renamedValue(value: unknown, rename: (key: string) => string): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const items = (value as unknown[]).map((item) => renamedValue(item, rename));
    return items.some((item, index) => item !== (value as unknown[])[index]) ? items : value;
  }
  const renamed = Object.entries(value).map(([key, item]): [string, unknown, boolean] => {
    const name = rename(key);
    const inner = renamedValue(item, rename);
    return [name, inner, name !== key || inner !== item];
  });
  if (!renamed.some(([, , changed]) => changed)) return value;
  const copy: Record<string, unknown> = {};
  // The next number to try for each name met twice: one count per name, so thousands of keys
  // renamed alike cost one step each, not a search from 2 every time.
  const next = new Map<string, number>();
  for (const [name, item] of renamed) {
    let free = name;
    let count = next.get(name) ?? 2;
    while (Object.hasOwn(copy, free)) free = `${name} ${count++}`;
    if (free !== name) next.set(name, count);
    defineEntry(copy, free, item);
  }
  return copy;
}

/**
 * Sets `object[key]` as JSON.parse would: defined, not assigned, so a key named __proto__ (which
 * JSON.parse makes) stays a key of the copy instead of setting its prototype.
 */
export function defineEntry(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
