import { describe, expect, it } from "vitest";
import { schemaProblems, toolSchemaProblems } from "../../src/core/mcp/schema-lint.js";

const at = (schema: unknown) =>
  schemaProblems(schema, "$.inputSchema").map((problem) => [problem.code, problem.path, problem.message]);

describe("schemaProblems", () => {
  it.each<[string, unknown, Array<[string, string, string]>]>([
    [
      "a clean schema",
      {
        type: "object",
        properties: {
          id: { type: "integer", minimum: 1 },
          tags: { type: "array", items: { type: "string" } },
        },
        required: ["id"],
      },
      [],
    ],
    [
      "a type from another language, with the JSON one to use",
      { type: "object", properties: { limit: { type: "int" } } },
      [
        [
          "unknown-type",
          "$.inputSchema.properties.limit.type",
          '"int" is not a JSON Schema type; use "integer" (the types are string, number, integer, boolean, object, array, null)',
        ],
      ],
    ],
    [
      "a misspelled type in a list",
      { type: "object", properties: { when: { type: ["strnig", "null"] } } },
      [
        [
          "unknown-type",
          "$.inputSchema.properties.when.type[0]",
          '"strnig" is not a JSON Schema type; use "string" (the types are string, number, integer, boolean, object, array, null)',
        ],
      ],
    ],
    [
      "a required entry that names no property",
      { type: "object", properties: { id: { type: "integer" } }, required: ["idd"] },
      [
        [
          "required-not-in-properties",
          "$.inputSchema.required[0]",
          '"idd" is required but is not one of the properties (id); did you mean "id"?',
        ],
      ],
    ],
    [
      "deep inside items and anyOf",
      {
        type: "object",
        properties: {
          rows: {
            type: "array",
            items: {
              anyOf: [{ type: "object", properties: { name: {} }, required: ["count"] }, { type: "null" }],
            },
          },
        },
      },
      [
        [
          "required-not-in-properties",
          "$.inputSchema.properties.rows.items.anyOf[0].required[0]",
          '"count" is required but is not one of the properties (name)',
        ],
      ],
    ],
    [
      "keyword values of the wrong kind",
      {
        type: "object",
        properties: { "page size": { type: "integer", minimum: "1", maxLength: -2, pattern: "([" } },
        required: "id",
        enum: [],
      },
      [
        [
          "invalid-schema",
          "$.inputSchema.required",
          '"required" must be an array of property names, got "id"',
        ],
        ["invalid-schema", "$.inputSchema.enum", '"enum" must be a non-empty array, got []'],
        [
          "invalid-schema",
          '$.inputSchema.properties["page size"].minimum',
          '"minimum" must be a number, got "1"',
        ],
        [
          "invalid-schema",
          '$.inputSchema.properties["page size"].maxLength',
          '"maxLength" must be a whole number of at least 0, got -2',
        ],
        [
          "invalid-schema",
          '$.inputSchema.properties["page size"].pattern',
          '"pattern" is not a regular expression: Invalid regular expression: /([/u: Unterminated character class',
        ],
      ],
    ],
    [
      "a property that is not a schema",
      { type: "object", properties: { a: "string" } },
      [
        [
          "invalid-schema",
          "$.inputSchema.properties.a",
          'a schema must be an object (or true/false), got "string"',
        ],
      ],
    ],
    ["boolean schemas", { type: "object", properties: { a: true }, additionalProperties: false }, []],
  ])("%s", (_name, schema, expected) => {
    expect(at(schema)).toEqual(expected);
  });

  it.each<[string, unknown, Array<[string, string]>]>([
    [
      "a definition that is only a reference to itself",
      { type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { $ref: "#/$defs/a" } } },
      [["$.inputSchema.properties.a.$ref", "#/$defs/a → #/$defs/a"]],
    ],
    [
      "two definitions referring to each other, described but nothing more",
      {
        type: "object",
        properties: { "the item": { $ref: "#/$defs/b" } },
        $defs: { a: { $ref: "#/$defs/b", description: "an a" }, b: { $ref: "#/$defs/a" } },
      },
      [['$.inputSchema.properties["the item"].$ref', "#/$defs/b → #/$defs/a → #/$defs/b"]],
    ],
    [
      "a definition that is itself in its own allOf, behind a not",
      {
        type: "object",
        properties: { a: { $ref: "#/$defs/a" } },
        $defs: { a: { type: "object", allOf: [{ not: { $ref: "#/$defs/a" } }] } },
      },
      [["$.inputSchema.properties.a.$ref", "#/$defs/a → #/$defs/a"]],
    ],
    [
      "the whole schema in its own anyOf",
      { type: "object", anyOf: [{ required: ["x"] }, { $ref: "#" }] },
      [["$.inputSchema.anyOf[1].$ref", "# → #"]],
    ],
  ])("names %s, once, at the first reference into it", (_name, schema, cycles) => {
    expect(at(schema)).toEqual(
      cycles.map(([path, chain]) => [
        "invalid-schema",
        path,
        `"$ref" leads back to itself on the same value (${chain}) without stepping into a property or an item, so checking a value against it never ends`,
      ]),
    );
  });

  it.each<[string, unknown]>([
    [
      "a tree whose nodes list their children",
      {
        type: "object",
        properties: { root: { $ref: "#/$defs/node" } },
        $defs: {
          node: {
            type: "object",
            properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } },
          },
        },
      },
    ],
    ["a reference to the whole schema", { type: "object", properties: { next: { $ref: "#" } } }],
    [
      "a reference to nothing there (the compiler says so)",
      { type: "object", properties: { a: { $ref: "#/nowhere" } } },
    ],
    ["an anchor", { type: "object", properties: { a: { $ref: "#thing" } } }],
  ])("leaves %s alone", (_name, schema) => {
    expect(at(schema)).toEqual([]);
  });

  it("stops at a depth no tool needs", () => {
    let deep: Record<string, unknown> = { type: "int" };
    for (let level = 0; level < 200; level += 1) deep = { type: "object", properties: { x: deep } };
    expect(at(deep)).toEqual([]);
  });
});

describe("toolSchemaProblems", () => {
  const compiles = () => undefined;
  it("checks the outputSchema too, and that both describe an object", () => {
    const problems = toolSchemaProblems(
      {
        inputSchema: { type: "object", properties: {} },
        outputSchema: { type: "array", items: { type: "float" } },
      },
      compiles,
    );
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual([
      ["unknown-type", "$.outputSchema.items.type"],
      ["schema-not-object", "$.outputSchema.type"],
    ]);
  });

  it("falls back on the compiler for what the walk does not know", () => {
    const problems = toolSchemaProblems(
      { inputSchema: { type: "object", $ref: "#/nowhere" } },
      () => "can't resolve reference #/nowhere",
    );
    expect(problems).toEqual([
      {
        code: "invalid-schema",
        path: "$.inputSchema",
        message: "The input schema is not valid JSON Schema: can't resolve reference #/nowhere.",
      },
    ]);
  });
});
