import { describe, expect, it } from "vitest";
import { SchemaValidator } from "../../src/core/policy/schema-validator.js";
import { lintTool } from "../../src/core/mcp/tool-lint.js";
import { schemaForModel } from "../../src/core/policy/schema-for-model.js";

/** Arguments are checked by the schema's own dialect: 2020-12 unless `$schema` names another. */
const validator = await SchemaValidator.loaded();

describe("JSON Schema dialects in argument checks", () => {
  it("checks 2020-12 keywords when no $schema is given: prefixItems, $defs/$ref, unevaluatedProperties", () => {
    const schema = {
      type: "object",
      $defs: { point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }] } },
      properties: { at: { $ref: "#/$defs/point" } },
      unevaluatedProperties: false,
    };
    expect(validator.check(schema, { at: [1, 2] })).toBeUndefined();
    expect(validator.check(schema, { at: [1, "two"] })).toMatch(/must be number/);
    expect(validator.check(schema, { at: [1, 2], extra: true })).toMatch(/unevaluated properties/);
  });

  it("checks a draft-07 schema by draft-07 rules (array items is a tuple there)", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } },
    };
    expect(validator.check(schema, { pair: ["a", 1] })).toBeUndefined();
    expect(validator.check(schema, { pair: ["a", "b"] })).toMatch(/must be number/);
  });

  it("checks a schema of a dialect it does not know as 2020-12, and the lint says so", () => {
    const schema = {
      $schema: "https://example.com/my-dialect",
      type: "object",
      properties: { n: { type: "integer" } },
    };
    expect(validator.check(schema, { n: "x" })).toMatch(/must be integer/);
    const findings = lintTool("s", { name: "t", description: "A tool.", inputSchema: schema } as never);
    expect(findings.map((finding) => finding.code)).toContain("unknown-schema-dialect");
    expect(findings.map((finding) => finding.code)).not.toContain("invalid-schema");
  });
});

describe("a schema whose references never end on a value", () => {
  it("is left to the server to check, as a schema that does not compile is, and lint names the loop", () => {
    const schema = {
      type: "object",
      properties: { a: { $ref: "#/$defs/a" } },
      $defs: { a: { allOf: [{ $ref: "#/$defs/a" }] } },
    };
    // ajv compiles it, then recurses without end checking a value: a RangeError, not a verdict.
    expect(validator.check(schema, { a: 1 })).toBeUndefined();
    expect(validator.mismatches(schema, { a: 1 })).toEqual([]);
    const findings = lintTool("s", { name: "t", description: "A tool.", inputSchema: schema } as never);
    expect(
      findings.filter((finding) => finding.code === "invalid-schema").map((finding) => finding.path),
    ).toEqual(["$.inputSchema.properties.a.$ref"]);
  });
});

describe("JSON Schema 2020-12 to the model", () => {
  it("keeps $schema, $defs, $ref (not dereferenced), $anchor, composition and conditionals as they are", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { id: { $anchor: "id", type: "string" } },
      properties: {
        who: { $ref: "#/$defs/id" },
        other: { $ref: "https://example.com/schemas/other.json" },
        mode: { anyOf: [{ const: "a" }, { const: "b" }] },
      },
      if: { properties: { mode: { const: "a" } } },
      then: { required: ["who"] },
      additionalProperties: false,
    };
    expect(schemaForModel(schema).schema).toEqual(schema);
  });
});
