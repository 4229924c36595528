import { describe, expect, it } from "vitest";
import { toolSchemaProblems } from "../../src/core/mcp/schema-lint.js";
import {
  expandedSchemaCount,
  isTooLargeToCheck,
  MAX_EXPANDED_SCHEMAS,
} from "../../src/core/policy/schema-expansion.js";
import { SchemaValidator } from "../../src/core/policy/schema-validator.js";

/** 1,000 properties, each a `$ref` to one definition of 10,000 schemas: ten million expanded. */
function wide(): Record<string, unknown> {
  const big = { allOf: Array.from({ length: 10_000 }, () => ({ type: "object" })) };
  const properties = Object.fromEntries(
    Array.from({ length: 1000 }, (_, i) => [`p${i}`, { $ref: "#/$defs/big" }]),
  );
  return { type: "object", $defs: { big }, properties };
}

/** 100 properties, each a `$ref` to `ref`. */
function refs(ref: string): Array<[string, { $ref: string }]> {
  return Array.from({ length: 100 }, (_, i) => [`p${i}`, { $ref: ref }]);
}

/** Thirty definitions, each naming the next twice: 2^30 expanded. */
function diamond(): Record<string, unknown> {
  const defs: Record<string, unknown> = { d30: { type: "number" } };
  for (let i = 0; i < 30; i += 1)
    defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  return { type: "object", $defs: defs, properties: { x: { $ref: "#/$defs/d0" } } };
}

describe("how many schemas a schema expands to", () => {
  it("counts each reference as what it names, and stops counting past the cap", () => {
    expect(
      expandedSchemaCount({
        type: "object",
        $defs: { id: { type: "integer", enum: Array.from({ length: 5000 }, (_, i) => i) } },
        properties: { a: { $ref: "#/$defs/id" }, b: { $ref: "#/$defs/id" } },
      }),
    ).toBeLessThan(20);
    expect(expandedSchemaCount(wide())).toBe(MAX_EXPANDED_SCHEMAS + 1);
    expect(expandedSchemaCount(diamond())).toBe(MAX_EXPANDED_SCHEMAS + 1);
  });

  it.each<[string, (big: object) => Record<string, unknown>]>([
    [
      "under a property named like a data keyword",
      (big) => ({
        type: "object",
        $defs: { big },
        properties: { description: { type: "object", properties: Object.fromEntries(refs("#/$defs/big")) } },
      }),
    ],
    [
      "through an anchor",
      (big) => ({
        type: "object",
        $defs: { big: { ...big, $anchor: "big" } },
        properties: Object.fromEntries(refs("#big")),
      }),
    ],
    [
      "by the document's absolute $id",
      (big) => ({
        $id: "https://schemas.example/tool.json",
        type: "object",
        $defs: { big },
        properties: Object.fromEntries(refs("https://schemas.example/tool.json#/$defs/big")),
      }),
    ],
    [
      "by a relative $id of its own",
      (big) => ({
        $id: "https://schemas.example/tool.json",
        type: "object",
        $defs: { big: { ...big, $id: "big.json" } },
        properties: Object.fromEntries(refs("big.json")),
      }),
    ],
  ])("counts references %s", (_name, build) => {
    const big = { allOf: Array.from({ length: 10_000 }, () => ({ type: "object" })) };
    expect(isTooLargeToCheck(build(big))).toBe(true);
  });

  it("counts a recursive reference once, as the function a validator calls again", () => {
    const tree = { type: "object", properties: { kids: { type: "array", items: { $ref: "#" } } } };
    expect(isTooLargeToCheck(tree)).toBe(false);
  });

  it("takes a chain of references deeper than a validator's stack as too large, not as a crash", () => {
    const defs: Record<string, unknown> = { d5000: { type: "string" } };
    for (let i = 0; i < 5000; i += 1) defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
    expect(
      isTooLargeToCheck({ type: "object", $defs: defs, properties: { x: { $ref: "#/$defs/d0" } } }),
    ).toBe(true);
  });
});

describe("a schema too large to check", () => {
  it("is never compiled: arguments pass to the server, which checks them", async () => {
    const validator = await SchemaValidator.loaded();
    expect(validator.check(diamond(), { x: "not a number" })).toBeUndefined();
    expect(validator.check(wide(), { p0: 1 })).toBeUndefined();
  });

  it("is named by lint, without compiling it", () => {
    const problems = toolSchemaProblems({ inputSchema: diamond() }, () => {
      throw new Error("compiled");
    });
    expect(problems).toEqual([
      {
        code: "invalid-schema",
        path: "$.inputSchema",
        message:
          "The input schema cannot be checked: its $refs expand to more than 200,000 schemas, more than a validator can build, so mcpterm leaves checking it to the server; name smaller definitions, or name them fewer times.",
      },
    ]);
  });
});
