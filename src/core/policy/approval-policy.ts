import { isRiskyTier, type Tier } from "./tiers.js";

/** Who decided that a call may or may not run. */
export type ApprovalSource = "config" | "flag" | "user" | "session" | "policy";

export interface ApprovalRules {
  /** Tiers that run without asking because the config (or user settings) says so. */
  auto: readonly Tier[];
  /** Tiers the person allowed for this run on the command line (`--approve`, `--yes`). */
  flagged: readonly Tier[];
}

export type ApprovalVerdict =
  { action: "allow"; by: ApprovalSource; reason: string } | { action: "ask"; reason: string };

/** Pure: may a call of this tier run without asking a person? */
export function decideApproval(tier: Tier, rules: ApprovalRules): ApprovalVerdict {
  if (rules.flagged.includes(tier))
    return { action: "allow", by: "flag", reason: `${tier} allowed on the command line` };
  if (rules.auto.includes(tier))
    return { action: "allow", by: "config", reason: `${tier} runs without asking` };
  return { action: "ask", reason: `${tier} calls need a person's yes` };
}

/**
 * The auto-approved tiers a config file may set. A project's file must not be able to make
 * risky calls run silently: `dangerous` and `external` there are dropped, with a warning.
 */
export function autoTiersFromProjectConfig(configured: readonly Tier[]): { auto: Tier[]; ignored: Tier[] } {
  return {
    auto: configured.filter((tier) => !isRiskyTier(tier)),
    ignored: configured.filter((tier) => isRiskyTier(tier)),
  };
}
