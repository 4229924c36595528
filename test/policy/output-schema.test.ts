import { describe, expect, it } from "vitest";
import type { CallToolResult } from "../../src/core/mcp/types.js";
import { outputSchemaProblem } from "../../src/core/policy/output-schema.js";
import { SchemaValidator } from "../../src/core/policy/schema-validator.js";

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

const validator = new SchemaValidator();
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
      "The structuredContent does not match the tool's outputSchema at /temperature: it must be number (and 1 more mismatch).",
    ],
    [
      "the first mismatch, at the top level",
      WEATHER,
      { content: text, structuredContent: { conditions: 7, station: {} } },
      "The structuredContent does not match the tool's outputSchema at the top level: it must have required property 'temperature' (and 2 more mismatches).",
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
