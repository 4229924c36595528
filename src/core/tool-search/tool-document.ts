/**
 * What tool search reads of a tool: the texts the model would be sent about it, never more. The
 * agent's tools fit this shape; tool search needs nothing else of them.
 */
export interface SearchableTool {
  /** The function name the model sees (`server__tool`): what selection is keyed by. */
  modelName: string;
  server: string;
  name: string;
  /** The tool's `title` (or its annotations' title), when the server gave one. */
  title?: string | undefined;
  /** Already cleaned and capped at the description limit (see tool-description.ts). */
  modelDescription: string;
  /** Already cleaned, every text capped (see schema-for-model.ts). */
  modelInputSchema: Record<string, unknown>;
}

/** The fields a tool is searched by, each with its own weight (see tool-index.ts). */
export const FIELDS = ["name", "title", "description", "parameters", "server"] as const;
export type Field = (typeof FIELDS)[number];

export type ToolDocument = Record<Field, string>;

/**
 * The most of each field that is searched. A tool's texts are already capped where they are made
 * (4,000 characters of description, 1,000 per schema text); these caps keep a tool that stuffs
 * words into its parameters or its server's instructions from matching every request.
 */
const FIELD_CAPS: Record<Field, number> = {
  name: 200,
  title: 200,
  description: 4_000,
  parameters: 2_000,
  server: 1_000,
};

/** Schema nesting read for parameter names and descriptions: the top level and one below it. */
const PARAMETER_DEPTH = 2;

/**
 * A tool as text, field by field. `instructions` are its server's own words about itself (MCP
 * `initialize`), which tell what the whole server is for.
 */
export function toolDocument(tool: SearchableTool, instructions = ""): ToolDocument {
  const document: ToolDocument = {
    name: tool.name,
    title: tool.title ?? "",
    description: tool.modelDescription,
    parameters: parameterText(tool.modelInputSchema, PARAMETER_DEPTH).join(" "),
    server: `${tool.server} ${instructions}`,
  };
  for (const field of FIELDS) document[field] = document[field].slice(0, FIELD_CAPS[field]);
  return document;
}

/** Property names, titles, descriptions and enum values of a schema's properties, in schema order. */
function parameterText(schema: unknown, depth: number): string[] {
  if (depth === 0 || !isObject(schema)) return [];
  const properties = schema.properties;
  const texts: string[] = [];
  if (isObject(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      texts.push(name);
      if (!isObject(property)) continue;
      for (const key of ["title", "description"] as const) {
        const text = property[key];
        if (typeof text === "string") texts.push(text);
      }
      if (Array.isArray(property.enum))
        texts.push(...property.enum.filter((value) => typeof value === "string"));
      texts.push(...parameterText(property, depth - 1));
      if (isObject(property.items)) texts.push(...parameterText(property.items, depth - 1));
    }
  }
  return texts;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
