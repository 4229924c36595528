import type { Tier } from "./tiers.js";

export interface ToolAnnotationsLike {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface TierInput {
  name: string;
  description?: string;
  annotations?: ToolAnnotationsLike;
  /** The user's `tiers` entry for this tool, if any. */
  override?: Tier;
  /** Whether the server is marked `trust: true`, which lets its annotations lower a tier. */
  trustedServer: boolean;
}

export interface TierDecision {
  tier: Tier;
  /** Why, in a few words: "config", "destructiveHint", "name: delete", "default". */
  reason: string;
}

/** How risky each tier is, for "may raise but never lower". */
const RISK_RANK: Record<Tier, number> = { read_only: 0, low_risk: 1, external: 2, dangerous: 3 };

const NAME_RULES: ReadonlyArray<{ tier: Tier; words: readonly string[] }> = [
  {
    tier: "dangerous",
    words: words(
      "delete remove rm rmdir drop destroy purge wipe erase truncate kill terminate exec execute run shell command cmd bash eval sudo chmod chown deploy install uninstall format reset revoke move mv overwrite config configure settings restart shutdown migrate transfer pay merge force",
    ),
  },
  {
    tier: "external",
    words: words(
      "fetch http https request curl wget download upload browse browser navigate url web internet send email mail sms post publish tweet slack webhook notify message share invite",
    ),
  },
  {
    tier: "low_risk",
    words: words(
      "write create edit update set add append insert save put mkdir rename patch modify change comment tag label star copy store upsert",
    ),
  },
  {
    tier: "read_only",
    words: words(
      "get list read search find query show describe view stat stats info tree count check inspect lookup look echo status explain validate diff preview sum summarize analyze resolve parse calculate compute compare help ping version time now",
    ),
  },
];

/**
 * A tool's tier, in this order: the user's override; the server's annotations (which, unless the
 * server is trusted, may raise but never lower what the name suggests); the name; `dangerous`.
 */
export function classifyTier(input: TierInput): TierDecision {
  if (input.override) return { tier: input.override, reason: "config" };
  const byName = tierFromName(input.name);
  const byAnnotations = tierFromAnnotations(input.annotations);
  if (byAnnotations) {
    if (input.trustedServer || !byName || RISK_RANK[byAnnotations.tier] >= RISK_RANK[byName.tier]) {
      return byAnnotations;
    }
    return {
      tier: byName.tier,
      reason: `${byName.reason}; ${byAnnotations.reason} ignored (untrusted server)`,
    };
  }
  return byName ?? { tier: "dangerous", reason: "default: nothing says it is safe" };
}

export function tierFromAnnotations(annotations: ToolAnnotationsLike | undefined): TierDecision | undefined {
  if (!annotations) return undefined;
  const { readOnlyHint, destructiveHint, openWorldHint } = annotations;
  if (openWorldHint === true) return { tier: "external", reason: "openWorldHint" };
  if (readOnlyHint === true) return { tier: "read_only", reason: "readOnlyHint" };
  // Per the MCP spec destructiveHint defaults to true for a tool that is not read-only.
  if (readOnlyHint === false && destructiveHint === false)
    return { tier: "low_risk", reason: "destructiveHint: false" };
  if (destructiveHint === true) return { tier: "dangerous", reason: "destructiveHint" };
  return undefined;
}

export function tierFromName(name: string): TierDecision | undefined {
  const words = splitWords(name);
  for (const rule of NAME_RULES) {
    const match = words.find((word) => rule.words.includes(word));
    if (match) return { tier: rule.tier, reason: `name: ${match}` };
  }
  return undefined;
}

/** `deleteFile`, `delete_file`, `delete-file` and `files.delete` all give ["delete", "file"]. */
export function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

function words(list: string): readonly string[] {
  return list.split(" ");
}
