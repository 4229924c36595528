import type { Tier } from "../policy/tiers.js";
import type { AllowanceScope } from "../policy/tool-allowances.js";

/**
 * A call the approval policy said to ask about, as plain data: what the person needs to decide,
 * and nothing of the agent's own types, so any front end (or a test) can answer it.
 */
export interface ApprovalRequest {
  /** The model's id for the call; the transcript shows the call under it. */
  callId: string;
  server: string;
  tool: string;
  tier: Tier;
  /** Why the tool has its tier (an annotation, the name, the user's `tiers`). */
  tierReason: string;
  /** Why policy asks (the tier, a secret in the arguments, a definition that changed). */
  reason: string;
  arguments: Record<string, unknown>;
  /**
   * The call's events show its arguments withheld, every string of them (a secret only the
   * argument scan saw, see arguments-shown.ts): a front end drawing the call from its events
   * shows the person `arguments` instead, so they can decide.
   */
  argumentsWithheld?: boolean;
  /** What mcpterm changed in the tool's definition before the model saw it. */
  notes: readonly string[];
}

/** A person's answer about one call (or one page to fetch). */
export interface ApprovalAnswer {
  approved: boolean;
  /** Shown to the person and, for a denial, told to the model. */
  reason: string;
  /** "Always allow": later calls of the same definition run unasked, this session or in this project. */
  remember?: AllowanceScope;
}

/** A page `/kb add` would fetch: the person sees the URL, its host on a line of its own, and why. */
export interface FetchQuestion {
  url: string;
  host: string;
  /** Why policy asks, e.g. "external calls need a person's yes". */
  reason: string;
}
