import { describe, expect, it } from "vitest";
import { schemaForModel, schemaWithholdReason } from "../../src/core/policy/schema-for-model.js";
import { redactWithPatterns } from "../../src/core/policy/secret-patterns.js";

const known = "the-users-own-key-value";
const redact = (text: string): string => redactWithPatterns(text, [known]).text;
const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

describe("schemaWithholdReason", () => {
  it.each([
    [
      object({ ["q\u200b"]: { type: "string" } }),
      "a property name in its input schema holds hidden characters",
    ],
    [
      object({ nested: object({ [known]: { type: "string" } }) }),
      "a property name in its input schema holds a secret",
    ],
    [
      object({ q: { type: "string" } }, { required: ["x".repeat(65)] }),
      "a property name in its input schema is 65 characters long",
    ],
    [
      object({ q: { enum: Array.from({ length: 8000 }, (_, i) => `value-${i}`) } }),
      /^its input schema is [\d,]+ characters, more than 65,536$/,
    ],
    [
      // 40 nested objects, two JSON levels each: deeper than any real schema.
      Array.from({ length: 40 }).reduce<Record<string, unknown>>((inner) => object({ a: inner }), {
        type: "string",
      }),
      "its input schema is nested deeper than 64 levels",
    ],
  ])("withholds %#", (schema, reason) => {
    const found = schemaWithholdReason(schema, redact);
    if (typeof reason === "string") expect(found).toBe(reason);
    else expect(found).toMatch(reason);
  });

  it("offers a schema nested as deep as real ones go", () => {
    const nested = Array.from({ length: 15 }).reduce<Record<string, unknown>>(
      (inner) => object({ a: { type: "array", items: inner } }),
      { type: "string" },
    );
    expect(schemaWithholdReason(nested, redact)).toBeUndefined();
  });

  it("offers an ordinary schema, and cleans its texts without touching names or structure", () => {
    const schema = object(
      { path: { type: "string", description: `The file.\u200b Token ${known}`, enum: ["a\u200db", "c"] } },
      { required: ["path"] },
    );
    expect(schemaWithholdReason(schema, redact)).toBeUndefined();
    expect(schemaForModel(schema, redact).schema).toEqual(
      object(
        { path: { type: "string", description: "The file. Token [REDACTED]", enum: ["ab", "c"] } },
        { required: ["path"] },
      ),
    );
  });
});
