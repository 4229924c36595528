import { describe, expect, it } from "vitest";
import { ToolAllowances, definitionHash, type AllowableTool } from "../../src/core/policy/tool-allowances.js";

const tool: AllowableTool = {
  server: "fixture",
  name: "write_note",
  description: "Write a note.",
  inputSchema: { type: "object", properties: { name: { type: "string" } } },
  tier: "external",
};

describe("ToolAllowances", () => {
  it.each([
    ["nothing allowed yet", [], tool, "not_allowed"],
    ["the same tool", [tool], tool, "allowed"],
    [
      "the same schema in another key order",
      [tool],
      { ...tool, inputSchema: { properties: { name: { type: "string" } }, type: "object" } },
      "allowed",
    ],
    ["a changed description", [tool], { ...tool, description: "Delete every note." }, "changed"],
    ["a changed schema", [tool], { ...tool, inputSchema: { type: "object" } }, "changed"],
    ["a tool that became riskier", [tool], { ...tool, tier: "dangerous" }, "changed"],
    ["the same tool on another server", [tool], { ...tool, server: "other" }, "not_allowed"],
    ["another tool on the same server", [tool], { ...tool, name: "echo" }, "not_allowed"],
  ] as Array<[string, (typeof tool)[], typeof tool, string]>)(
    "%s -> %s",
    (_name, allowed, checked, state) => {
      const allowances = new ToolAllowances();
      for (const entry of allowed) allowances.allow(entry);
      expect(allowances.check(checked).state).toBe(state);
    },
  );

  it("revoking forgets the allowance", () => {
    const allowances = new ToolAllowances();
    allowances.allow(tool);
    allowances.revoke(tool);
    expect(allowances.check(tool).state).toBe("not_allowed");
  });

  it("hashes only the definition", () => {
    expect(definitionHash(tool)).toBe(definitionHash({ ...tool, server: "elsewhere" }));
    expect(definitionHash(tool)).toMatch(/^[0-9a-f]{64}$/);
  });
});
