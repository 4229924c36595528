/** The four risk tiers, from harmless to the ones that always need a person's yes. */
export const TIERS = ["read_only", "low_risk", "dangerous", "external"] as const;
export type Tier = (typeof TIERS)[number];

/** A tier and why, in a few words: "config", "destructiveHint", "name: delete", "default". */
export interface TierDecision {
  tier: Tier;
  reason: string;
}

/**
 * How risky a tier is, for "may raise but never lower": its place in TIERS. `external` ranks above
 * `dangerous` because what leaves cannot be called back (a push, a sent mail, a posted comment)
 * and it lands on other people's systems, while local damage stays where backups and version
 * control can undo it. So a tool that both reaches out and destroys (`git_push --force`) is
 * `external`, and `--approve dangerous`, given to let a tool work on local files, never lets it
 * push or send.
 */
export function riskRank(tier: Tier): number {
  return TIERS.indexOf(tier);
}

export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}

/** Tiers that must never run on a model's say-so alone. */
export function isRiskyTier(tier: Tier): boolean {
  return tier === "dangerous" || tier === "external";
}
