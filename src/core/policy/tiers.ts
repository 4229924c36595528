/** The four risk tiers, from harmless to the ones that always need a person's yes. */
export const TIERS = ["read_only", "low_risk", "dangerous", "external"] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}

/** Tiers that must never run on a model's say-so alone. */
export function isRiskyTier(tier: Tier): boolean {
  return tier === "dangerous" || tier === "external";
}
