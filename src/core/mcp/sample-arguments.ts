/** Deeper than this, no value is made: no tool's arguments nest so far. */
const MAX_DEPTH = 8;

/**
 * Arguments a tool's own input schema accepts, made up to call it without a model (`mcpterm
 * doctor`'s sample calls): each required property gets its `const`, `default`, first `enum` value
 * or first example, else the smallest plain value of its type within its bounds (`1` for a number
 * with no minimum, `false` for a flag, a string of at least its `minLength`, a well-formed value
 * for a `format`). Optional properties are left out: the call then asks the least of the tool.
 * Pure; whether the result fits the schema is for the caller to check.
 */
export function sampleArguments(schema: unknown): Record<string, unknown> {
  const value = sampleObject(isRecord(schema) ? schema : {}, 0);
  return isRecord(value) ? value : {};
}

function sampleObject(schema: Record<string, unknown>, depth: number): Record<string, unknown> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const args: Record<string, unknown> = {};
  for (const name of required) {
    // A required name with no property (a misspelling) gets nothing: the schema check says so.
    if (typeof name !== "string" || !(name in properties)) continue;
    args[name] = sampleValue(properties[name], depth + 1);
  }
  return args;
}

function sampleValue(schema: unknown, depth: number): unknown {
  if (!isRecord(schema) || depth > MAX_DEPTH) return "sample";
  if ("const" in schema) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (branches) {
    // The first branch that is not null: a nullable value is sampled as its value.
    const branch = branches.find((item) => !isRecord(item) || item.type !== "null") ?? branches[0];
    return sampleValue(branch, depth + 1);
  }
  switch (typeOf(schema)) {
    case "integer":
      return Math.ceil(lowest(schema));
    case "number":
      return lowest(schema);
    case "boolean":
      return false;
    case "null":
      return null;
    case "array": {
      const count = typeof schema.minItems === "number" ? schema.minItems : 0;
      return Array.from({ length: count }, () => sampleValue(schema.items, depth + 1));
    }
    case "object":
      return sampleObject(schema, depth);
    case "string":
    case undefined:
    default:
      return sampleString(schema);
  }
}

function typeOf(schema: Record<string, unknown>): string | undefined {
  const { type } = schema;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.find((name) => name !== "null") as string | undefined;
  if (isRecord(schema.properties)) return "object";
  return undefined;
}

/** The smallest number within the bounds, 1 when nothing bounds it from below. */
function lowest(schema: Record<string, unknown>): number {
  const { minimum, exclusiveMinimum, maximum } = schema;
  if (typeof minimum === "number") return minimum;
  if (typeof exclusiveMinimum === "number") return exclusiveMinimum + 1;
  if (typeof maximum === "number" && maximum < 1) return maximum;
  return 1;
}

const FORMATS: Record<string, string> = {
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
  time: "00:00:00Z",
  email: "someone@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  "uri-reference": "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  hostname: "example.com",
  ipv4: "127.0.0.1",
  ipv6: "::1",
};

function sampleString(schema: Record<string, unknown>): string {
  const formatted = typeof schema.format === "string" ? FORMATS[schema.format] : undefined;
  if (formatted !== undefined) return formatted;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  return "sample".padEnd(min, "x").slice(0, Math.max(min, Math.min(max, 6)));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
