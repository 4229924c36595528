import { describe, expect, it } from "vitest";
import { sampleArguments } from "../../src/core/mcp/sample-arguments.js";
import { SchemaValidator } from "../../src/core/policy/schema-validator.js";

describe("sampleArguments", () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ["no properties", { type: "object" }, {}],
    [
      "only the required properties, each a plain value of its type",
      {
        type: "object",
        properties: {
          query: { type: "string" },
          limit: { type: "integer" },
          ratio: { type: "number" },
          recursive: { type: "boolean" },
          tags: { type: "array", items: { type: "string" } },
          optional: { type: "string" },
        },
        required: ["query", "limit", "ratio", "recursive", "tags"],
      },
      { query: "sample", limit: 1, ratio: 1, recursive: false, tags: [] },
    ],
    [
      "const, default, enum and examples first",
      {
        type: "object",
        properties: {
          a: { const: "fixed" },
          b: { type: "integer", default: 20 },
          c: { type: "string", enum: ["asc", "desc"] },
          d: { type: "string", examples: ["Paris"] },
        },
        required: ["a", "b", "c", "d"],
      },
      { a: "fixed", b: 20, c: "asc", d: "Paris" },
    ],
    [
      "within bounds and formats",
      {
        type: "object",
        properties: {
          page: { type: "integer", minimum: 5 },
          above: { type: "number", exclusiveMinimum: 0.5 },
          negative: { type: "integer", maximum: -3 },
          code: { type: "string", minLength: 10 },
          short: { type: "string", maxLength: 3 },
          when: { type: "string", format: "date-time" },
          id: { type: "string", format: "uuid" },
          items: { type: "array", minItems: 2, items: { type: "integer" } },
        },
        required: ["page", "above", "negative", "code", "short", "when", "id", "items"],
      },
      {
        page: 5,
        above: 1.5,
        negative: -3,
        code: "samplexxxx",
        short: "sam",
        when: "2026-01-01T00:00:00Z",
        id: "00000000-0000-4000-8000-000000000000",
        items: [1, 1],
      },
    ],
    [
      "nested objects, nullable unions and type lists",
      {
        type: "object",
        properties: {
          where: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          maybe: { anyOf: [{ type: "null" }, { type: "integer" }] },
          either: { type: ["null", "boolean"] },
        },
        required: ["where", "maybe", "either"],
      },
      { where: { city: "sample" }, maybe: 1, either: false },
    ],
    [
      "a required name no property defines: nothing, for the schema check to name",
      { type: "object", properties: { id: { type: "integer" } }, required: ["idd"] },
      {},
    ],
  ])("%s", (_name, schema, expected) => {
    expect(sampleArguments(schema)).toEqual(expected);
  });

  it("makes arguments that the schema they came from accepts", async () => {
    const schema = {
      type: "object",
      properties: {
        q: { type: "string", minLength: 2, maxLength: 40 },
        n: { type: "integer", minimum: 1, maximum: 50 },
        sort: { type: "string", enum: ["new", "old"] },
        at: { type: "string", format: "date" },
      },
      required: ["q", "n", "sort", "at"],
      additionalProperties: false,
    };
    expect((await SchemaValidator.loaded()).check(schema, sampleArguments(schema))).toBeUndefined();
  });
});
