import { describe, expect, it } from "vitest";
import { xMcpHeaderProblem } from "../../src/core/mcp/x-mcp-header.js";

const schema = (properties: Record<string, unknown>): Record<string, unknown> => ({
  type: "object",
  properties,
});

describe("x-mcp-header declarations (SEP-2243)", () => {
  it("accepts headers on string, integer and boolean parameters reached through properties", () => {
    expect(
      xMcpHeaderProblem(
        schema({
          region: { type: "string", "x-mcp-header": "Region" },
          page: { type: "integer", "x-mcp-header": "Page" },
          nested: { type: "object", properties: { dry: { type: "boolean", "x-mcp-header": "Dry-Run" } } },
        }),
      ),
    ).toBeUndefined();
    expect(xMcpHeaderProblem({ type: "object" })).toBeUndefined();
  });

  it.each([
    [{ a: { type: "string", "x-mcp-header": "" } }, /empty x-mcp-header name/],
    [{ a: { type: "string", "x-mcp-header": "Bad Name" } }, /not a valid header name/],
    [{ a: { type: "string", "x-mcp-header": "Région" } }, /not a valid header name/],
    [{ a: { type: "number", "x-mcp-header": "A" } }, /of type "number"/],
    [{ a: { type: "array", items: { type: "string" }, "x-mcp-header": "A" } }, /of type "array"/],
    [
      { a: { type: "string", "x-mcp-header": "Same" }, b: { type: "string", "x-mcp-header": "same" } },
      /repeats the one on parameter a/,
    ],
    [{ a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } }, /inside items, a union/],
    [{ a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } }, /inside items, a union/],
  ])("refuses %j", (properties, reason) => {
    expect(xMcpHeaderProblem(schema(properties))).toMatch(reason);
  });

  it("ignores the annotation's name inside const, enum, default and examples values", () => {
    expect(
      xMcpHeaderProblem(schema({ a: { type: "object", default: { "x-mcp-header": "not a schema" } } })),
    ).toBeUndefined();
  });
});
