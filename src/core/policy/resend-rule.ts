import type { Tier } from "./tiers.js";

/** What the rule needs to know about a tool: its tier, why, and whether the person trusts its server. */
export interface ResendFacts {
  tier: Tier;
  /** "config" when the person's own `tiers` entry set it. */
  tierReason: string;
  trustedServer: boolean;
}

/**
 * Whether a tool call that may have reached its server may be sent again: after a timeout, a
 * dropped connection, a server that exited or restarted during the call, or a lost HTTP session.
 * Only when running it twice cannot matter, and the person, not the server, vouches for that: a
 * `read_only` tool of a server marked `trust: true`, or one the person's `tiers` entry calls
 * `read_only`. A server's own readOnlyHint or idempotentHint is its say alone, and a tool that
 * wrote something must not write it twice because the server said it would not.
 * Every re-send in mcpterm asks this function (README "Failures").
 */
export function resendIsSafe(facts: ResendFacts): boolean {
  if (facts.tier !== "read_only") return false;
  return facts.trustedServer || facts.tierReason === "config";
}

/**
 * What the model and the person are told when a call's fate is unknown and it was not sent
 * again: `how` the server went ("exited during the call"), and why it was not sent again when
 * that is not the rule itself ("it did not come back").
 */
export function unknownResultMessage(server: string, how: string, why = NOT_SAFE): string {
  return `the result is unknown: server "${server}" ${how}; the call was not sent again (${why})`;
}

const NOT_SAFE = "only read-only tools of a trusted server are";
