import { describe, expect, it } from "vitest";
import { autoTiersFromProjectConfig, decideApproval } from "../../src/core/policy/approval-policy.js";

describe("decideApproval", () => {
  const rules = { auto: ["read_only", "low_risk"] as const, flagged: [] as const };
  it.each([
    ["read_only", rules, { action: "allow", by: "config" }],
    ["low_risk", rules, { action: "allow", by: "config" }],
    ["dangerous", rules, { action: "ask" }],
    ["external", rules, { action: "ask" }],
    ["dangerous", { auto: ["read_only"], flagged: ["dangerous"] }, { action: "allow", by: "flag" }],
    ["external", { auto: [], flagged: ["dangerous"] }, { action: "ask" }],
    ["low_risk", { auto: [], flagged: [] }, { action: "ask" }],
  ] as const)("%s with %j", (tier, ruleSet, expected) => {
    expect(decideApproval(tier, ruleSet)).toMatchObject(expected);
  });
});

describe("autoTiersFromProjectConfig", () => {
  it("drops risky tiers a project file tries to auto-approve", () => {
    expect(autoTiersFromProjectConfig(["read_only", "dangerous", "low_risk", "external"])).toEqual({
      auto: ["read_only", "low_risk"],
      ignored: ["dangerous", "external"],
    });
  });
});
