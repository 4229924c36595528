import { tierFromArguments } from "./tier-from-arguments.js";
import { tierFromName } from "./tier-from-name.js";
import { riskRank, type Tier, type TierDecision } from "./tiers.js";

export interface ToolAnnotationsLike {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface TierInput {
  name: string;
  annotations?: ToolAnnotationsLike;
  /** The tool's JSON Schema for its arguments: values the model may choose can name a destructive mode. */
  inputSchema?: unknown;
  /** The user's `tiers` entry for this tool, if any. */
  override?: Tier;
  /** Whether the server is marked `trust: true`, which lets its annotations lower a tier. */
  trustedServer: boolean;
}

const UNTRUSTED_WRITE = "untrusted server; low_risk needs trusted annotations or your tiers";

/**
 * A tool's tier, in this order:
 * 1. the user's `tiers` entry;
 * 2. a trusted server's annotations, when they say anything (but a network verb in the name stays
 *    `external` unless they say `openWorldHint: false`);
 * 3. otherwise the riskiest of these readings, so that annotations may raise a tier but never
 *    lower it below what the name and the arguments suggest:
 *    - the name's verb (see tierFromName): `read_only` for a read, `dangerous` for a write or a
 *      destructive verb, `external` for a network verb;
 *    - a destructive value among the arguments' enums (see tierFromArguments): `dangerous`;
 *    - the annotations, where an untrusted `destructiveHint: false` is a write that asks, since
 *      `low_risk` runs unasked and so comes only from trusted annotations or the user's `tiers`;
 * 4. where nothing says anything, `dangerous`.
 * On a tie the most telling reason is kept: a destructive or network verb in the name, then the
 * arguments, then the annotations, then a read or write verb in the name.
 * The description is not read: it is prose for the model, where "message", "remote" or "never
 * delete" are nouns and warnings, and would move tiers at random.
 */
export function classifyTier(input: TierInput): TierDecision {
  if (input.override) return { tier: input.override, reason: "config" };
  const byName = tierFromName(input.name);
  const named = byName && { tier: byName.tier, reason: byName.reason };
  const byAnnotations = tierFromAnnotations(input.annotations);
  const believed = byAnnotations && believe(byAnnotations, named, input.annotations);
  if (believed && input.trustedServer) return believed;
  const claimed =
    byAnnotations?.tier === "low_risk"
      ? { tier: "dangerous" as const, reason: `${byAnnotations.reason} (${UNTRUSTED_WRITE})` }
      : byAnnotations;
  const byArguments = tierFromArguments(input.inputSchema);
  const telling = byName?.verb === "destructive" || byName?.verb === "network";
  const evidence = (telling ? [named, byArguments, claimed] : [byArguments, claimed, named]).filter(
    (decision) => decision !== undefined,
  );
  const decision = evidence.reduce<TierDecision | undefined>(
    (best, next) => (!best || riskRank(next.tier) > riskRank(best.tier) ? next : best),
    undefined,
  );
  if (!decision) return { tier: "dangerous", reason: "default: nothing says it is safe" };
  // Say so when trusting the server would have given a lower tier: that is what `trust: true` changes.
  if (believed && claimed === byAnnotations && riskRank(believed.tier) < riskRank(decision.tier)) {
    return {
      tier: decision.tier,
      reason: `${decision.reason}; ${believed.reason} ignored (untrusted server)`,
    };
  }
  return decision;
}

/**
 * What a trusted server's annotations decide: what they say, except that a network verb in the
 * name (`git_push`) stays `external` unless they say `openWorldHint: false`, since servers rarely
 * state the open world at all.
 */
function believe(
  byAnnotations: TierDecision,
  byName: TierDecision | undefined,
  annotations: ToolAnnotationsLike | undefined,
): TierDecision {
  if (
    byName?.tier === "external" &&
    byAnnotations.tier !== "external" &&
    annotations?.openWorldHint !== false
  )
    return byName;
  return byAnnotations;
}

/**
 * What the MCP annotations say, alone. Per the spec `destructiveHint` means something only when
 * `readOnlyHint` is false, and then defaults to true.
 */
export function tierFromAnnotations(annotations: ToolAnnotationsLike | undefined): TierDecision | undefined {
  if (!annotations) return undefined;
  const { readOnlyHint, destructiveHint, openWorldHint } = annotations;
  if (openWorldHint === true) return { tier: "external", reason: "openWorldHint" };
  if (readOnlyHint === true) return { tier: "read_only", reason: "readOnlyHint" };
  if (readOnlyHint === false && destructiveHint === false)
    return { tier: "low_risk", reason: "destructiveHint: false" };
  if (destructiveHint === true) return { tier: "dangerous", reason: "destructiveHint" };
  if (readOnlyHint === false)
    return { tier: "dangerous", reason: "readOnlyHint: false (destructiveHint defaults to true)" };
  return undefined;
}
