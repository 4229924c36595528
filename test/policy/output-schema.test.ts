import { describe, expect, it } from "vitest";
import type { CallToolResult } from "../../src/core/mcp/types.js";
import { outputSchemaProblem } from "../../src/core/policy/output-schema.js";
import { checkableSchema, SchemaValidator } from "../../src/core/policy/schema-validator.js";

const WEATHER = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    temperature: { type: "number" },
    conditions: { type: "string" },
    station: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
  },
  required: ["temperature", "conditions"],
};

const validator = await SchemaValidator.loaded();
const text = [{ type: "text" as const, text: "{}" }];

describe("outputSchemaProblem", () => {
  it.each<[string, Record<string, unknown> | undefined, CallToolResult, string | undefined]>([
    [
      "a tool without an outputSchema",
      undefined,
      { content: text, structuredContent: { any: 1 } },
      undefined,
    ],
    [
      "structured content that fits",
      WEATHER,
      { content: text, structuredContent: { temperature: 21, conditions: "sunny" } },
      undefined,
    ],
    [
      "no structured content",
      WEATHER,
      { content: text },
      "The tool has an outputSchema but returned no structuredContent, which the MCP spec requires.",
    ],
    ["an error result without structured content", WEATHER, { content: text, isError: true }, undefined],
    [
      "one value of the wrong type",
      WEATHER,
      { content: text, structuredContent: { temperature: "warm", conditions: "sunny" } },
      "The structuredContent does not match the tool's outputSchema at /temperature: it must be number.",
    ],
    [
      "a required property missing, and more",
      WEATHER,
      { content: text, structuredContent: { temperature: "warm", conditions: 7 } },
      "The structuredContent does not match the tool's outputSchema in 2 places: at /temperature it must be number; at /conditions it must be string.",
    ],
    [
      "every mismatch, one at the top level",
      WEATHER,
      { content: text, structuredContent: { conditions: 7, station: {} } },
      "The structuredContent does not match the tool's outputSchema in 3 places: at the top level it must have required property 'temperature'; at /conditions it must be string; at /station it must have required property 'id'.",
    ],
    [
      "a nested mismatch",
      WEATHER,
      { content: text, structuredContent: { temperature: 1, conditions: "", station: { id: 1.5 } } },
      "The structuredContent does not match the tool's outputSchema at /station/id: it must be integer.",
    ],
    [
      "a schema that cannot be compiled, which cannot be checked",
      { type: "object", properties: { a: { type: "degrees" } } },
      { content: text, structuredContent: { a: 1 } },
      undefined,
    ],
  ])("%s", (_case, schema, result, expected) => {
    expect(outputSchemaProblem(schema, result, validator)).toBe(expected);
  });
});

describe("what a hostile schema cannot do to the checker", () => {
  it("does not run a server's regular expressions: ^(a+)+$ against 40 a's and a b returns at once", async () => {
    const validator = await SchemaValidator.loaded();
    const schema = { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } };
    // With the pattern run, this would backtrack for hours on the event loop.
    expect(validator.check(schema, { s: `${"a".repeat(40)}b` })).toBeUndefined();
    expect(validator.check(schema, { s: 5 })).toMatch(/must be string/);
  });

  it("keeps a property named pattern, and drops patternProperties", () => {
    expect(
      checkableSchema({
        $id: "x",
        properties: { pattern: { type: "string", pattern: "a+" } },
        patternProperties: { "^(a+)+$": {} },
      }),
    ).toEqual({ properties: { pattern: { type: "string" } } });
  });

  it("checks each schema on its own even when two share an $id", async () => {
    const validator = await SchemaValidator.loaded();
    const first = { $id: "urn:same", type: "object", required: ["n"] };
    const second = { $id: "urn:same", type: "object", required: ["s"] };
    expect(validator.check(first, {})).toMatch(/'n'/);
    expect(validator.check(second, { s: "x" })).toBeUndefined();
    expect(validator.check(second, {})).toMatch(/'s'/);
  });
});
