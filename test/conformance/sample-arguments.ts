/**
 * Arguments for a tool the adapter calls without a model: a value for each required property of
 * its input schema, its default or first enum value when it has one, else a plain value of its
 * type. Numbers count up (1, 2, ...) so a tool like add_numbers gets distinct operands.
 */
export function sampleArguments(schema: unknown): Record<string, unknown> {
  if (!isRecord(schema) || !isRecord(schema.properties)) return {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const args: Record<string, unknown> = {};
  let ordinal = 0;
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!required.includes(name)) continue;
    args[name] = sampleValue(isRecord(property) ? property : {}, () => ++ordinal);
  }
  return args;
}

function sampleValue(property: Record<string, unknown>, nextNumber: () => number): unknown {
  if (property.default !== undefined) return property.default;
  if (Array.isArray(property.enum) && property.enum.length > 0) return property.enum[0];
  switch (property.type) {
    case "number":
    case "integer":
      return nextNumber();
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return sampleArguments(property);
    default:
      return "sample";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
