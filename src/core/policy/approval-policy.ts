import { describeArgumentSecrets, type ArgumentSecret } from "./argument-secrets.js";
import { isRiskyTier, type Tier } from "./tiers.js";
import type { AllowanceCheck } from "./tool-allowances.js";

/**
 * Who decided that a call may or may not run:
 * - `default`: mcpterm's own default (read_only and low_risk run unasked) where no file says otherwise;
 * - `config`: the project's mcp.config.json `approval.auto` (safe tiers only);
 * - `settings`: the user's own settings file `approval.auto`;
 * - `flag`: `--approve` / `--yes` on this command line;
 * - `session`: an "always allow" the person gave earlier in this session;
 * - `user`: the person, asked about this call;
 * - `policy`: nobody could be asked (one-shot mode), or asking failed.
 */
export type ApprovalSource = "default" | "config" | "settings" | "flag" | "session" | "user" | "policy";

/** Everything the decision depends on besides the call itself; fixed for a session. */
export interface ApprovalRules {
  /** Tiers the project's config lets run unasked; only safe tiers ever get here. */
  project: readonly Tier[];
  /** Tiers that run unasked by mcpterm's default, when the config does not name its own. */
  defaults?: readonly Tier[];
  /** Tiers the user's own settings let run unasked (may include risky ones: the user's word). */
  settings: readonly Tier[];
  /** Tiers allowed for this run on the command line (`--approve`, `--yes`). */
  flagged: readonly Tier[];
  /** Whether a person can be asked. Without one, whatever needs asking is denied. */
  interactive: boolean;
  /**
   * `--allow-secret-arguments`: the person said on the command line that calls may send secrets
   * they find in the arguments. Without it such a call always asks (or, with nobody to ask, is denied).
   */
  allowSecretArguments?: boolean;
}

/** The call as policy sees it: its tier, the person's allowance for the tool, secrets it would send. */
export interface ApprovalSubject {
  tier: Tier;
  allowance: AllowanceCheck;
  /** Secrets found in the call's arguments (findArgumentSecrets); none when empty or absent. */
  secrets?: readonly ArgumentSecret[];
}

export type ApprovalVerdict =
  | { action: "allow"; by: Exclude<ApprovalSource, "user" | "policy">; reason: string }
  | { action: "ask"; reason: string }
  | { action: "deny"; by: "policy"; reason: string };

/**
 * Pure: may this call run without asking, must a person be asked, or can nobody allow it?
 * Every approval decision is made here; only "ask" ever reaches a person.
 */
export function decideApproval(subject: ApprovalSubject, rules: ApprovalRules): ApprovalVerdict {
  const { tier, allowance } = subject;
  // A call that would send a secret out runs on nobody's standing word: no tier, flag or
  // allowance lets it through, only a person looking at it (or the one flag for exactly this).
  const secrets = subject.secrets ?? [];
  if (secrets.length > 0 && rules.allowSecretArguments !== true) {
    const what = `the arguments hold a secret: ${describeArgumentSecrets(secrets)}`;
    return rules.interactive
      ? { action: "ask", reason: `${what}; check it before it leaves` }
      : {
          action: "deny",
          by: "policy",
          reason: `${what}, and mcpterm is running non-interactively (the user can let such calls through with --allow-secret-arguments)`,
        };
  }
  if (rules.flagged.includes(tier))
    return { action: "allow", by: "flag", reason: `${tier} allowed on the command line` };
  if (rules.settings.includes(tier))
    return { action: "allow", by: "settings", reason: `${tier} runs without asking (your settings)` };
  if (rules.project.includes(tier))
    return { action: "allow", by: "config", reason: `${tier} runs without asking (the project's config)` };
  if (rules.defaults?.includes(tier))
    return { action: "allow", by: "default", reason: `${tier} runs without asking (mcpterm's default)` };
  if (allowance.state === "allowed")
    return allowance.saved
      ? {
          action: "allow",
          by: "settings",
          reason: "allowed in this project by the user (saved in your settings)",
        }
      : { action: "allow", by: "session", reason: "allowed for this session by the user" };
  if (!rules.interactive) {
    return {
      action: "deny",
      by: "policy",
      reason: `mcpterm is running non-interactively and ${tier} calls need a person's approval (the user can allow them with --approve ${tier})`,
    };
  }
  if (allowance.state === "changed") {
    return {
      action: "ask",
      reason:
        allowance.what === "server"
          ? "the server's entry runs another program or reaches another URL since you allowed this tool; asking again"
          : "the tool changed its definition since you allowed it; asking again",
    };
  }
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
