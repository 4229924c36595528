import { parseArguments } from "../core/agent/resolve-tool-call.js";

/** The arguments of `mcpterm call` as typed: one JSON object, and `key=value` words beside it. */
export interface TypedArguments {
  json: Record<string, unknown>;
  /** In the order typed; values still text, typed by the tool's schema once it is known. */
  pairs: Array<{ key: string; value: string }>;
}

/**
 * Reads the words after `call <server>/<tool>`: at most one JSON object, and any number of
 * `key=value` (the value is everything after the first `=`). One sentence says what is wrong.
 */
export function readCallWords(words: readonly string[]): TypedArguments | string {
  const typed: TypedArguments = { json: {}, pairs: [] };
  let jsonSeen = false;
  for (const word of words) {
    const pair = /^([A-Za-z_$][\w$.-]*)=([\s\S]*)$/.exec(word);
    if (pair && !word.trimStart().startsWith("{")) {
      const key = pair[1] ?? "";
      if (typed.pairs.some((given) => given.key === key))
        return `The argument ${key}= was given twice; give it once`;
      typed.pairs.push({ key, value: pair[2] ?? "" });
      continue;
    }
    if (jsonSeen) return "The arguments hold two JSON objects; give one, and key=value words beside it";
    const parsed = parseArguments(word);
    if (!parsed.ok)
      return `The tool arguments are not a JSON object: ${parsed.error} (give '{"key":"value"}' or key=value)`;
    typed.json = parsed.value;
    jsonSeen = true;
  }
  return typed;
}

/**
 * The arguments to send: the JSON object with each `key=value` set on it (a pair wins over the
 * same key in the JSON), its value read as the type the tool's input schema gives the property —
 * a number, a boolean, null, an object or array as JSON — and as text otherwise. A value that
 * does not read as its type stays text, for the schema check to name.
 */
export function bindCallArguments(
  typed: TypedArguments,
  inputSchema: Record<string, unknown>,
): Record<string, unknown> {
  const properties = isRecord(inputSchema.properties) ? inputSchema.properties : {};
  const args: Record<string, unknown> = { ...typed.json };
  for (const { key, value } of typed.pairs) {
    const property = properties[key];
    args[key] = valueAs(isRecord(property) ? typesOf(property) : [], value);
  }
  return args;
}

function typesOf(property: Record<string, unknown>): string[] {
  const { type } = property;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((item): item is string => typeof item === "string");
  // A nullable or union property (`anyOf: [{type: "integer"}, {type: "null"}]`).
  const branches = [property.anyOf, property.oneOf].flatMap((list): unknown[] =>
    Array.isArray(list) ? (list as unknown[]) : [],
  );
  return branches.flatMap((branch) => (isRecord(branch) ? typesOf(branch) : []));
}

function valueAs(types: readonly string[], text: string): unknown {
  if (types.includes("string") || types.length === 0) return text;
  // A number as JSON writes one: `0x10`, `0b101` or ` 3 ` would be JavaScript's reading, not the person's.
  // And finite: `1e400` would be Infinity, which JSON sends as null.
  if (
    (types.includes("integer") || types.includes("number")) &&
    JSON_NUMBER.test(text) &&
    Number.isFinite(Number(text))
  )
    return Number(text);
  if (types.includes("boolean") && (text === "true" || text === "false")) return text === "true";
  if (types.includes("null") && text === "null") return null;
  if (types.includes("object") || types.includes("array")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
