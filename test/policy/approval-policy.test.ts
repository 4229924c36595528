import { describe, expect, it } from "vitest";
import {
  autoTiersFromProjectConfig,
  decideApproval,
  type ApprovalRules,
} from "../../src/core/policy/approval-policy.js";
import type { AllowanceCheck } from "../../src/core/policy/tool-allowances.js";

const base: ApprovalRules = {
  project: ["read_only", "low_risk"],
  settings: [],
  flagged: [],
  interactive: true,
};
const none: AllowanceCheck = { state: "not_allowed" };
const allowed: AllowanceCheck = { state: "allowed", saved: false };
const saved: AllowanceCheck = { state: "allowed", saved: true };
const changed: AllowanceCheck = { state: "changed", what: "definition" };

describe("decideApproval", () => {
  it.each([
    ["read_only", none, base, { action: "allow", by: "config" }],
    ["low_risk", none, base, { action: "allow", by: "config" }],
    ["dangerous", none, base, { action: "ask" }],
    ["external", none, base, { action: "ask" }],
    ["dangerous", none, { ...base, flagged: ["dangerous"] }, { action: "allow", by: "flag" }],
    ["external", none, { ...base, flagged: ["dangerous"] }, { action: "ask" }],
    ["low_risk", none, { ...base, project: [] }, { action: "ask" }],
    // With no approval.auto in the config, mcpterm's own default is what let it run.
    [
      "read_only",
      none,
      { ...base, project: [], defaults: ["read_only"] },
      { action: "allow", by: "default" },
    ],
    ["read_only", none, { ...base, defaults: ["read_only"] }, { action: "allow", by: "config" }],
    // The user's own settings are credited as such, not as the project's config.
    ["dangerous", none, { ...base, settings: ["dangerous"] }, { action: "allow", by: "settings" }],
    ["read_only", none, { ...base, settings: ["read_only"] }, { action: "allow", by: "settings" }],
    // A flag is the most specific word, so it is credited first.
    ["dangerous", allowed, { ...base, flagged: ["dangerous"] }, { action: "allow", by: "flag" }],
    ["dangerous", allowed, base, { action: "allow", by: "session" }],
    // Saved for this project in the user's settings: it lasts, and runs one-shot too.
    ["dangerous", saved, base, { action: "allow", by: "settings" }],
    ["dangerous", saved, { ...base, interactive: false }, { action: "allow", by: "settings" }],
    ["dangerous", changed, base, { action: "ask" }],
    // Nobody to ask: whatever needs a person is denied, naming the flag that would allow it.
    ["dangerous", none, { ...base, interactive: false }, { action: "deny", by: "policy" }],
    ["external", changed, { ...base, interactive: false }, { action: "deny", by: "policy" }],
    ["read_only", none, { ...base, interactive: false }, { action: "allow", by: "config" }],
    [
      "external",
      none,
      { ...base, interactive: false, flagged: ["external"] },
      { action: "allow", by: "flag" },
    ],
  ] as const)("%s, allowance %j, rules %j", (tier, allowance, rules, expected) => {
    expect(decideApproval({ tier, allowance }, rules)).toMatchObject(expected);
  });
});

describe("a call whose arguments hold a secret", () => {
  const secrets = [{ path: "body", rule: "openai-api-key" }];
  const everything: ApprovalRules = {
    project: ["read_only", "low_risk"],
    settings: ["dangerous", "external"],
    flagged: ["read_only", "low_risk", "dangerous", "external"],
    interactive: true,
  };
  it.each([
    ["read_only", none, everything, { action: "ask" }],
    ["external", allowed, everything, { action: "ask" }],
    ["external", allowed, { ...everything, interactive: false }, { action: "deny", by: "policy" }],
    // The one flag for exactly this hands the call back to the tier rules.
    ["external", none, { ...everything, allowSecretArguments: true }, { action: "allow", by: "flag" }],
    [
      "external",
      none,
      { ...base, interactive: false, allowSecretArguments: true },
      { action: "deny", by: "policy" },
    ],
  ] as const)("%s, allowance %j, rules %j: never auto-approved", (tier, allowance, rules, expected) => {
    expect(decideApproval({ tier, allowance, secrets }, rules)).toMatchObject(expected);
  });

  it("names the argument and the kind of secret, and the flag", () => {
    const asked = decideApproval({ tier: "external", allowance: none, secrets }, base);
    expect(asked.reason).toBe(
      "the arguments hold a secret: body (openai-api-key); check it before it leaves",
    );
    const denied = decideApproval(
      { tier: "external", allowance: none, secrets },
      { ...base, interactive: false },
    );
    expect(denied.reason).toMatch(/body \(openai-api-key\).*--allow-secret-arguments/);
  });
});

describe("the reasons decideApproval gives", () => {
  it("names the flag that would allow a denied call, and says when an allowance lapsed", () => {
    const denied = decideApproval({ tier: "dangerous", allowance: none }, { ...base, interactive: false });
    expect(denied.reason).toMatch(/non-interactively.*--approve dangerous/);
    const lapsed = decideApproval({ tier: "dangerous", allowance: changed }, base);
    expect(lapsed.reason).toMatch(/changed its definition since you allowed it/);
    const moved = decideApproval(
      { tier: "dangerous", allowance: { state: "changed", what: "server" } },
      base,
    );
    expect(moved).toMatchObject({ action: "ask" });
    expect(moved.reason).toMatch(/runs another program or reaches another URL since you allowed this tool/);
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
