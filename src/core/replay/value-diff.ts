/** One place where a replayed answer differs from the recorded one; `undefined` means absent. */
export interface Difference {
  /** JSONPath of the member, e.g. `$.content[0].text`. */
  path: string;
  recorded: unknown;
  replayed: unknown;
}

/**
 * Where two JSON values differ, member by member, in a stable order (object keys sorted, array
 * items by index). Equal values give none; key order never counts.
 */
export function diffValues(recorded: unknown, replayed: unknown, path = "$"): Difference[] {
  if (Object.is(recorded, replayed)) return [];
  if (Array.isArray(recorded) && Array.isArray(replayed)) {
    const differences: Difference[] = [];
    const length = Math.max(recorded.length, replayed.length);
    for (let index = 0; index < length; index += 1)
      differences.push(...diffValues(recorded[index], replayed[index], `${path}[${index}]`));
    return differences;
  }
  if (isObject(recorded) && isObject(replayed)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(replayed)])].sort();
    return keys.flatMap((key) => diffValues(recorded[key], replayed[key], `${path}${pathKey(key)}`));
  }
  return [{ path, recorded, replayed }];
}

/** `.name` for a plain key, `['odd key']` otherwise, so the path can be given back to --ignore. */
function pathKey(key: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(key)
    ? `.${key}`
    : `['${key.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}']`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
