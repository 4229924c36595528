import { nearestKey } from "../config/nearest-key.js";
import { isTooLargeToCheck, MAX_EXPANDED_SCHEMAS, SCHEMA_MAPS } from "../policy/schema-expansion.js";
import { member } from "./json-path.js";
import { refCycles } from "./schema-ref-cycles.js";

/** One mistake in a tool's JSON Schema, at its JSON path inside the tool's definition. */
export interface SchemaProblem {
  code: "invalid-schema" | "unknown-type" | "required-not-in-properties";
  /** `$.inputSchema.properties.limit.type`. */
  path: string;
  message: string;
}

const JSON_TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];
/** What authors write for a JSON type from the language they think in. */
const TYPE_SYNONYMS: Record<string, string> = {
  int: "integer",
  int32: "integer",
  int64: "integer",
  long: "integer",
  uint: "integer",
  float: "number",
  double: "number",
  decimal: "number",
  real: "number",
  str: "string",
  text: "string",
  char: "string",
  bool: "boolean",
  dict: "object",
  map: "object",
  record: "object",
  json: "object",
  list: "array",
  tuple: "array",
  set: "array",
  none: "null",
  nil: "null",
};
/** Keywords whose value is one schema. */
const ONE_SCHEMA = [
  "additionalProperties",
  "additionalItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
];
/** Keywords whose value is a non-empty list of schemas. */
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];

const NUMBERS = ["minimum", "maximum", "multipleOf"];
const COUNTS = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
];
const TEXTS = ["description", "title", "format", "$ref", "$id", "$schema", "$comment"];
/** Deeper than this, a schema is not walked: no tool needs it, and a hostile one could be endless. */
const MAX_DEPTH = 64;

/**
 * The mistakes a JSON Schema holds, each at its path (under `root`, e.g. `$.inputSchema`): type
 * names JSON Schema does not have (`"int"`), `required` entries that name no property (a
 * misspelling the model can never satisfy), and keyword values of the wrong kind (a `minimum`
 * written as text, a `pattern` that is no regular expression, `properties` that is not an
 * object). Pure; it walks the schema, it never compiles or runs it.
 */
export function schemaProblems(schema: unknown, root: string): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  walk(schema, root, 0, problems);
  for (const { path, chain } of refCycles(schema, root))
    problems.push({
      code: "invalid-schema",
      path,
      message: `"$ref" leads back to itself on the same value (${chain.join(" → ")}) without stepping into a property or an item, so checking a value against it never ends`,
    });
  return problems;
}

function walk(schema: unknown, at: string, depth: number, problems: SchemaProblem[]): void {
  if (depth > MAX_DEPTH || typeof schema === "boolean") return;
  const add = (code: SchemaProblem["code"], path: string, message: string): void => {
    problems.push({ code, path, message });
  };
  if (!isRecord(schema)) {
    add("invalid-schema", at, `a schema must be an object (or true/false), got ${shown(schema)}`);
    return;
  }
  checkType(schema.type, `${at}.type`, add);
  checkRequired(schema, at, add);
  for (const key of NUMBERS)
    if (key in schema && typeof schema[key] !== "number")
      add("invalid-schema", `${at}.${key}`, `"${key}" must be a number, got ${shown(schema[key])}`);
  for (const key of ["exclusiveMinimum", "exclusiveMaximum"])
    if (key in schema && typeof schema[key] !== "number" && typeof schema[key] !== "boolean")
      add("invalid-schema", `${at}.${key}`, `"${key}" must be a number, got ${shown(schema[key])}`);
  for (const key of COUNTS) {
    const value = schema[key];
    if (key in schema && !(typeof value === "number" && Number.isInteger(value) && value >= 0))
      add(
        "invalid-schema",
        `${at}.${key}`,
        `"${key}" must be a whole number of at least 0, got ${shown(value)}`,
      );
  }
  for (const key of TEXTS)
    if (key in schema && typeof schema[key] !== "string")
      add("invalid-schema", `${at}.${key}`, `"${key}" must be a string, got ${shown(schema[key])}`);
  if ("enum" in schema && !(Array.isArray(schema.enum) && schema.enum.length > 0))
    add("invalid-schema", `${at}.enum`, `"enum" must be a non-empty array, got ${shown(schema.enum)}`);
  if ("pattern" in schema) checkPattern(schema.pattern, `${at}.pattern`, add);
  for (const key of ONE_SCHEMA) if (key in schema) walk(schema[key], `${at}.${key}`, depth + 1, problems);
  for (const key of SCHEMA_LISTS) {
    if (!(key in schema)) continue;
    const list = schema[key];
    if (!Array.isArray(list) || list.length === 0) {
      add(
        "invalid-schema",
        `${at}.${key}`,
        `"${key}" must be a non-empty array of schemas, got ${shown(list)}`,
      );
      continue;
    }
    list.forEach((item: unknown, index) => walk(item, `${at}.${key}[${index}]`, depth + 1, problems));
  }
  if ("items" in schema) {
    const { items } = schema;
    if (Array.isArray(items))
      items.forEach((item: unknown, index) => walk(item, `${at}.items[${index}]`, depth + 1, problems));
    else walk(items, `${at}.items`, depth + 1, problems);
  }
  for (const key of SCHEMA_MAPS) {
    if (!(key in schema)) continue;
    const map = schema[key];
    if (!isRecord(map)) {
      add("invalid-schema", `${at}.${key}`, `"${key}" must be an object of schemas, got ${shown(map)}`);
      continue;
    }
    for (const [name, item] of Object.entries(map))
      walk(item, `${at}.${key}${member(name)}`, depth + 1, problems);
  }
}

function checkType(
  type: unknown,
  at: string,
  add: (code: SchemaProblem["code"], path: string, message: string) => void,
): void {
  if (type === undefined) return;
  const names = Array.isArray(type) ? type : [type];
  names.forEach((name: unknown, index) => {
    const path = Array.isArray(type) ? `${at}[${index}]` : at;
    if (typeof name !== "string") {
      add("invalid-schema", path, `"type" must be a type name or a list of them, got ${shown(name)}`);
      return;
    }
    if (JSON_TYPES.includes(name)) return;
    const meant = TYPE_SYNONYMS[name.toLowerCase()] ?? nearestKey(name, JSON_TYPES);
    add(
      "unknown-type",
      path,
      `"${name}" is not a JSON Schema type${meant ? `; use "${meant}"` : ""} (the types are ${JSON_TYPES.join(", ")})`,
    );
  });
}

/**
 * `required` must list property names, once each; one that `properties` does not define is a
 * misspelling nearly always (`"idd"` for `id`), and no call can fill it in.
 */
function checkRequired(
  schema: Record<string, unknown>,
  at: string,
  add: (code: SchemaProblem["code"], path: string, message: string) => void,
): void {
  if (!("required" in schema)) return;
  const { required } = schema;
  if (!Array.isArray(required)) {
    add(
      "invalid-schema",
      `${at}.required`,
      `"required" must be an array of property names, got ${shown(required)}`,
    );
    return;
  }
  const properties = isRecord(schema.properties) ? Object.keys(schema.properties) : undefined;
  required.forEach((name: unknown, index) => {
    const path = `${at}.required[${index}]`;
    if (typeof name !== "string") {
      add("invalid-schema", path, `"required" must list property names, got ${shown(name)}`);
      return;
    }
    if (required.indexOf(name) !== index) {
      add("invalid-schema", path, `"${name}" is listed in "required" twice`);
      return;
    }
    if (properties === undefined || properties.includes(name)) return;
    const meant = nearestKey(name, properties);
    add(
      "required-not-in-properties",
      path,
      `"${name}" is required but is not one of the properties (${properties.join(", ") || "none"})${meant ? `; did you mean "${meant}"?` : ""}`,
    );
  });
}

function checkPattern(
  pattern: unknown,
  at: string,
  add: (code: SchemaProblem["code"], path: string, message: string) => void,
): void {
  if (typeof pattern !== "string") {
    add("invalid-schema", at, `"pattern" must be a regular expression as a string, got ${shown(pattern)}`);
    return;
  }
  try {
    // Compiled, never run: building a RegExp cannot backtrack.
    new RegExp(pattern, "u");
  } catch (error) {
    add("invalid-schema", at, `"pattern" is not a regular expression: ${(error as Error).message}`);
  }
}

function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Compiles a schema as mcpterm's checks would; the sentence ajv gives when it cannot. */
export type SchemaCompiler = (schema: Record<string, unknown>) => string | undefined;

/**
 * Every problem in a tool's input and output schemas, at their paths in the definition: what
 * the walk finds, and, where it finds nothing, whatever still stops the schema compiling. Both
 * schemas must describe an object, as MCP requires.
 */
export function toolSchemaProblems(
  tool: { inputSchema: unknown; outputSchema?: unknown },
  compileError: SchemaCompiler,
): Array<SchemaProblem | { code: "schema-not-object"; path: string; message: string }> {
  const problems = [];
  for (const [field, schema] of [
    ["inputSchema", tool.inputSchema],
    ["outputSchema", tool.outputSchema],
  ] as const) {
    if (schema === undefined) continue;
    const root = `$.${field}`;
    const found = schemaProblems(schema, root);
    problems.push(...found);
    const what = field === "inputSchema" ? "input" : "output";
    if (
      isRecord(schema) &&
      schema.type !== "object" &&
      !found.some((problem) => problem.path === `${root}.type`)
    )
      problems.push({
        code: "schema-not-object" as const,
        path: `${root}.type`,
        message: `The ${what} schema's type is ${schema.type === undefined ? "missing" : JSON.stringify(schema.type)}, not "object" as MCP requires.`,
      });
    if (found.length === 0 && isTooLargeToCheck(schema)) {
      // Never handed to the validator, which would take gigabytes and minutes to build it.
      problems.push({
        code: "invalid-schema" as const,
        path: root,
        message: `The ${what} schema cannot be checked: its $refs expand to more than ${MAX_EXPANDED_SCHEMAS.toLocaleString("en-US")} schemas, more than a validator can build, so mcpterm leaves checking it to the server; name smaller definitions, or name them fewer times.`,
      });
      continue;
    }
    const compile = found.length === 0 && isRecord(schema) ? compileError(schema) : undefined;
    if (compile !== undefined)
      problems.push({
        code: "invalid-schema" as const,
        path: root,
        message: `The ${what} schema is not valid JSON Schema: ${compile}.`,
      });
  }
  return problems;
}
