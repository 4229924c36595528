import { describe, expect, it } from "vitest";
import { SchemaValidator } from "../../src/core/policy/schema-validator.js";

const validator = await SchemaValidator.loaded();

describe("a value an enum does not allow", () => {
  it("is told with the values it allows, for a property, an item and a tuple's item", () => {
    const schema = {
      type: "object",
      properties: {
        location: { type: "string", enum: ["New York", "Chicago", "Los Angeles"] },
        units: { type: "array", items: { enum: ["c", "f"] } },
        pair: { type: "array", prefixItems: [{ enum: [1, 2] }, { enum: [null, true] }] },
        "a/b": { enum: ["x"] },
      },
    };
    expect(validator.check(schema, { location: "Nowhere" })).toBe(
      'data/location must be equal to one of the allowed values: "New York", "Chicago", "Los Angeles"',
    );
    expect(validator.check(schema, { units: ["c", "k"] })).toBe(
      'data/units/1 must be equal to one of the allowed values: "c", "f"',
    );
    expect(validator.check(schema, { pair: [1, false] })).toBe(
      "data/pair/1 must be equal to one of the allowed values: null, true",
    );
    expect(validator.check(schema, { "a/b": "y" })).toBe(
      'data/a~1b must be equal to one of the allowed values: "x"',
    );
  });

  it("lists a dozen and counts the rest, follows the schema's own refs, and leaves what it cannot follow", () => {
    const many = Array.from({ length: 30 }, (_, index) => `v${index}`);
    const schema = {
      type: "object",
      $defs: { kind: { enum: ["a", "b"] } },
      properties: { pick: { enum: many }, kind: { $ref: "#/$defs/kind" } },
    };
    expect(validator.check(schema, { pick: "zz" })).toBe(
      `data/pick must be equal to one of the allowed values: ${many
        .slice(0, 12)
        .map((value) => `"${value}"`)
        .join(", ")}, and 18 more`,
    );
    expect(validator.check(schema, { kind: "c" })).toBe(
      'data/kind must be equal to one of the allowed values: "a", "b"',
    );
    // Under anyOf there is no one place to read the values from: ajv's words stand.
    const either = { type: "object", properties: { k: { anyOf: [{ enum: ["a"] }, { type: "number" }] } } };
    expect(validator.check(either, { k: "b" })).toMatch(
      /^data\/k must be equal to one of the allowed values, /,
    );
  });

  it("cuts a long value short, writes out controls, and reads a node's own enum before its ref", () => {
    const schema = {
      type: "object",
      $defs: { colour: { enum: ["red", "green"] } },
      properties: {
        long: { enum: ["x".repeat(500)] },
        escape: { enum: ["a\u009b2Jb"] },
        narrowed: { $ref: "#/$defs/colour", enum: ["red"] },
      },
    };
    const long = validator.check(schema, { long: "y" }) ?? "";
    expect(long).toMatch(/allowed values: "x{78}…$/);
    expect(validator.check(schema, { escape: "z" })).toBe(
      'data/escape must be equal to one of the allowed values: "a⟨U+009B⟩2Jb"',
    );
    expect(validator.check(schema, { narrowed: "green" })).toBe(
      'data/narrowed must be equal to one of the allowed values: "red"',
    );
  });

  it("keeps each mismatch whole though an allowed value reads like the next error", () => {
    const schema = {
      type: "object",
      properties: { a: { enum: ["x, data/b must be number"] }, b: { type: "number" } },
    };
    expect(validator.mismatches(schema, { a: "y", b: "two" })).toEqual([
      { path: "/a", message: 'must be equal to one of the allowed values: "x, data/b must be number"' },
      { path: "/b", message: "must be number" },
    ]);
  });
});
