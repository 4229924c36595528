/** The tool-parameter annotation that mirrors a parameter into an HTTP header (SEP-2243). */
const ANNOTATION = "x-mcp-header";
/** RFC 9110 token characters, which a header name is made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Values a header can carry as they are (a number must be a whole one). */
const MIRRORABLE_TYPES = new Set(["string", "integer", "boolean"]);

/**
 * Why a tool's `x-mcp-header` declarations break SEP-2243, or undefined when they are fine. A
 * client speaking 2026-07-28 over Streamable HTTP must not list such a tool: the header it asks
 * for could not be sent. The rules: a name that is a non-empty HTTP token, unique without regard
 * to case; only on a string, integer or boolean parameter reached from the top of the schema
 * through `properties` alone (not through items, unions, conditionals or references).
 */
export function xMcpHeaderProblem(inputSchema: unknown): string | undefined {
  const seen = new Map<string, string>();
  for (const { path, schema, reachable } of annotated(inputSchema, "", true)) {
    const name: unknown = schema[ANNOTATION];
    const where = path === "" ? "the schema itself" : `parameter ${path}`;
    if (typeof name !== "string" || name === "") return `${where} has an empty ${ANNOTATION} name`;
    if (!TOKEN.test(name))
      return `${where} has ${ANNOTATION} ${JSON.stringify(name)}, which is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only)`;
    if (!reachable)
      return `${where} has ${ANNOTATION} ${JSON.stringify(name)} inside items, a union, a condition or a reference; only parameters reached through properties can be headers`;
    if (typeof schema.type !== "string" || !MIRRORABLE_TYPES.has(schema.type))
      return `${where} has ${ANNOTATION} ${JSON.stringify(name)} but is of type ${JSON.stringify(schema.type ?? "unset")}; only string, integer and boolean parameters can be headers`;
    const folded = name.toLowerCase();
    const other = seen.get(folded);
    if (other !== undefined)
      return `${ANNOTATION} ${JSON.stringify(name)} on ${where} repeats the one on parameter ${other} (header names ignore case)`;
    seen.set(folded, path);
  }
  return undefined;
}

interface Annotated {
  path: string;
  schema: Record<string, unknown>;
  /** Reached from the top through `properties` alone. */
  reachable: boolean;
}

/** Every schema in `schema` that carries the annotation, with how it was reached. */
function annotated(schema: unknown, path: string, reachable: boolean, depth = 0): Annotated[] {
  if (!isRecord(schema) || depth > 32) return [];
  const found: Annotated[] = ANNOTATION in schema ? [{ path, schema, reachable }] : [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && isRecord(value)) {
      for (const [name, property] of Object.entries(value))
        found.push(...annotated(property, path === "" ? name : `${path}.${name}`, reachable, depth + 1));
    } else if (key !== "const" && key !== "enum" && key !== "default" && key !== "examples") {
      // Anything else that holds schemas (items, anyOf, then, $defs...): annotations there are misplaced.
      for (const inner of Array.isArray(value) ? value : [value])
        found.push(...annotated(inner, path === "" ? key : `${path}.${key}`, false, depth + 1));
    }
  }
  return found;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
