/**
 * The small part of JSONPath a replay needs to ignore fields that change every run:
 * `$.structuredContent.timestamp`, `$.content[0].text`, `$.items[*].id`, `$..requestId` (at any
 * depth), `$['odd key']`. The leading `$` may be left out.
 */
export type PathStep =
  | { kind: "key"; key: string }
  | { kind: "index"; index: number }
  | { kind: "any" }
  /** `..key`: this key at any depth below. */
  | { kind: "deep"; key: string };

export interface JsonPath {
  text: string;
  steps: PathStep[];
}

/** What stands in for an ignored array item, so the items after it keep their places. */
export const IGNORED = "‹ignored›";

/** Parses one path; returns the sentence that says what is wrong with it instead, when it is. */
export function parseJsonPath(text: string): JsonPath | string {
  const source = text.trim();
  let rest = source.startsWith("$")
    ? source.slice(1)
    : source.startsWith(".") || source.startsWith("[")
      ? source
      : `.${source}`;
  const steps: PathStep[] = [];
  while (rest !== "") {
    const deep = /^\.\.([A-Za-z_$][\w$-]*|\*)/.exec(rest);
    if (deep?.[1] !== undefined) {
      steps.push(deep[1] === "*" ? { kind: "any" } : { kind: "deep", key: deep[1] });
      rest = rest.slice(deep[0].length);
      continue;
    }
    const dotted = /^\.([A-Za-z_$][\w$-]*|\*)/.exec(rest);
    if (dotted?.[1] !== undefined) {
      steps.push(dotted[1] === "*" ? { kind: "any" } : { kind: "key", key: dotted[1] });
      rest = rest.slice(dotted[0].length);
      continue;
    }
    const bracket = /^\[(?:(\d+)|\*|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]/.exec(rest);
    if (bracket) {
      const [whole, index, single, double] = bracket;
      if (index !== undefined) steps.push({ kind: "index", index: Number(index) });
      else if (single !== undefined || double !== undefined)
        steps.push({ kind: "key", key: (single ?? double ?? "").replace(/\\(.)/g, "$1") });
      else steps.push({ kind: "any" });
      rest = rest.slice(whole.length);
      continue;
    }
    return `"${text}" is not a JSON path this replay understands at "${rest}"; write it like $.structuredContent.id, $.content[0].text, $.items[*].id or $..timestamp.`;
  }
  if (steps.length === 0)
    return `"${text}" names the whole result; name a field in it, like $.structuredContent.id.`;
  return { text: source, steps };
}

/** A copy of `value` without what the paths name (array items are replaced by IGNORED). */
export function withoutPaths(value: unknown, paths: readonly JsonPath[]): unknown {
  let result = structuredClone<unknown>(value);
  for (const path of paths) result = remove(result, path.steps);
  return result;
}

function remove(value: unknown, steps: readonly PathStep[]): unknown {
  const [step, ...rest] = steps;
  if (step === undefined) return value;
  const last = rest.length === 0;
  if (step.kind === "deep") {
    const removed = remove(value, [{ kind: "key", key: step.key }, ...rest]);
    return mapChildren(removed, (child) => remove(child, steps));
  }
  if (Array.isArray(value)) {
    return (value as unknown[]).map((item, index) => {
      const matches = step.kind === "any" || (step.kind === "index" && step.index === index);
      if (!matches) return item;
      return last ? IGNORED : remove(item, rest);
    });
  }
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const matches = step.kind === "any" || (step.kind === "key" && step.key === key);
    if (!matches) copy[key] = item;
    else if (!last) copy[key] = remove(item, rest);
  }
  return copy;
}

function mapChildren(value: unknown, map: (child: unknown) => unknown): unknown {
  if (Array.isArray(value)) return (value as unknown[]).map(map);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, map(item)]));
}
