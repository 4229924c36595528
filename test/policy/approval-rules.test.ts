import { describe, expect, it } from "vitest";
import { decideApproval } from "../../src/core/policy/approval-policy.js";
import { sessionApprovalRules } from "../../src/core/policy/approval-rules.js";
import { DEFAULT_AUTO_APPROVED_TIERS } from "../../src/core/config/index.js";
import type { Tier } from "../../src/core/policy/tiers.js";
import type { AllowanceCheck } from "../../src/core/policy/tool-allowances.js";

const none: AllowanceCheck = { state: "not_allowed" };

/** A one-shot session's rules for a project file that says `approval.auto: auto` (or nothing). */
function rulesFor(auto: readonly Tier[] | undefined) {
  return sessionApprovalRules({
    config:
      auto === undefined ? { auto: DEFAULT_AUTO_APPROVED_TIERS, fromFile: false } : { auto, fromFile: true },
    defaults: DEFAULT_AUTO_APPROVED_TIERS,
    settings: [],
    flagged: [],
    interactive: false,
    allowSecretArguments: false,
  });
}

const runsUnasked = (auto: readonly Tier[] | undefined, tier: Tier): boolean =>
  decideApproval({ tier, allowance: none }, rulesFor(auto).rules).action === "allow";

describe("sessionApprovalRules: a project's approval.auto", () => {
  it("without one, mcpterm's default runs unasked", () => {
    expect(runsUnasked(undefined, "read_only")).toBe(true);
    expect(runsUnasked(undefined, "low_risk")).toBe(true);
    expect(runsUnasked(undefined, "dangerous")).toBe(false);
  });

  it("naming only risky tiers, has them ignored and leaves the default standing", () => {
    // The file asked for more to run unasked, not for read_only calls to be denied.
    const { ignored } = rulesFor(["dangerous", "external"]);
    expect(ignored).toEqual(["dangerous", "external"]);
    expect(runsUnasked(["dangerous", "external"], "read_only")).toBe(true);
    expect(runsUnasked(["dangerous", "external"], "low_risk")).toBe(true);
    expect(runsUnasked(["dangerous", "external"], "dangerous")).toBe(false);
    expect(runsUnasked(["dangerous", "external"], "external")).toBe(false);
  });

  it("naming a safe tier beside a risky one, is the project's word for the safe tiers", () => {
    expect(rulesFor(["read_only", "dangerous"]).ignored).toEqual(["dangerous"]);
    expect(runsUnasked(["read_only", "dangerous"], "read_only")).toBe(true);
    expect(runsUnasked(["read_only", "dangerous"], "low_risk")).toBe(false);
    expect(runsUnasked(["read_only", "dangerous"], "dangerous")).toBe(false);
  });

  it("empty, asks for every call, as the project said", () => {
    expect(rulesFor([]).ignored).toEqual([]);
    expect(runsUnasked([], "read_only")).toBe(false);
  });
});
