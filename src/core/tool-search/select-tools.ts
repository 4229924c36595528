import { isBuiltIn } from "./built-in.js";
import type { SearchableTool } from "./tool-document.js";
import type { RankedTool } from "./tool-index.js";
import { toolKey, type ToolKey } from "./tool-key.js";

/**
 * Why a tool is in a request: mcpterm's own tools are `always` there; the person or the config
 * `pinned` it; the model `used` it earlier in the session; the model `found` it with
 * search_tools; or it ranked among the best for the conversation (`score`).
 */
export type OfferReason = "always" | "pinned" | "used" | "found" | "score";

/**
 * How many of the servers' tools a request offered (mcpterm's own, reason "always", left out):
 * the one count the status line, /tools, progress lines and the trace show beside the total.
 */
export function serverToolsOffered(offered: ReadonlyArray<{ reason: OfferReason }>): number {
  return offered.filter((entry) => entry.reason !== "always").length;
}

/** A tool the model used or found earlier in the session. */
export interface Remembered {
  key: ToolKey;
  reason: "used" | "found";
}

export interface OfferedTool<T extends SearchableTool = SearchableTool> {
  tool: T;
  reason: OfferReason;
  /** Its score for the conversation (0 when it matched nothing). */
  score: number;
  /** The conversation's words it matched (as indexed: stemmed). */
  matched: string[];
}

export interface HeldBackTool<T extends SearchableTool = SearchableTool> {
  tool: T;
  score: number;
  matched: string[];
  /** Set when the model used or found it, and the request had no room left for it. */
  remembered?: Remembered["reason"];
}

/** Estimated tokens the tools of one request may take. */
export interface OfferBudget {
  /** All the offered tools together. */
  offer: number;
  /** The ranked ones among them (the first may take more, as long as it fits in `offer`). */
  ranked: number;
}

export interface SelectionInput<T extends SearchableTool> {
  /** Every tool that may be offered, in the order they are listed (requests keep that order). */
  tools: readonly T[];
  /** The tools ranked for the conversation, best first (ToolIndex.rank). */
  ranked: ReadonlyArray<RankedTool<T>>;
  pinned: (tool: T) => boolean;
  /** What the model used and found this session, the most important (the latest) first. */
  remembered: readonly Remembered[];
  /** How many of the best-ranked tools are offered besides the rest. */
  limit: number;
  /** Estimated tokens of a tool's definition. */
  size: (tool: T) => number;
  budget: OfferBudget;
}

export interface Selection<T extends SearchableTool = SearchableTool> {
  offered: Array<OfferedTool<T>>;
  heldBack: Array<HeldBackTool<T>>;
  /** Set when mcpterm's own and the pinned tools alone take more than `budget.offer`. */
  overBudget?: { tokens: number; pinned: number };
}

/** The part of an offer that does not depend on the conversation's words. */
export interface FixedOffer {
  reasons: Map<ToolKey, OfferReason>;
  /** Estimated tokens the offered tools take. */
  tokens: number;
  overBudget?: { tokens: number; pinned: number };
}

/**
 * What every request offers whatever its words: mcpterm's own and the pinned tools, which are
 * never dropped; then the used and found ones, latest first, each as long as it fits in what
 * `budget.offer` leaves. A tool that does not fit is dropped and the next, less important one is
 * tried: dropping those could not have made room for it. search_tools asks this before it tells
 * the model which of the tools it found the next request will offer.
 */
export function fixedOffer<T extends SearchableTool>(
  input: Pick<SelectionInput<T>, "tools" | "pinned" | "remembered" | "size" | "budget">,
): FixedOffer {
  const reasons = new Map<ToolKey, OfferReason>();
  let tokens = 0;
  let pinned = 0;
  for (const tool of input.tools) {
    const reason = isBuiltIn(tool) ? "always" : input.pinned(tool) ? "pinned" : undefined;
    if (!reason) continue;
    reasons.set(toolKey(tool), reason);
    tokens += input.size(tool);
    if (reason === "pinned") pinned += 1;
  }
  const overBudget = tokens > input.budget.offer ? { tokens, pinned } : undefined;
  const byKey = new Map(input.tools.map((tool) => [toolKey(tool), tool]));
  for (const { key, reason } of input.remembered) {
    const tool = byKey.get(key);
    if (!tool || reasons.has(key)) continue;
    const size = input.size(tool);
    if (tokens + size > input.budget.offer) continue;
    reasons.set(key, reason);
    tokens += size;
  }
  return { reasons, tokens, ...(overBudget ? { overBudget } : {}) };
}

/**
 * Which tools one request offers, most important first until the budget is spent: the fixed
 * offer (fixedOffer), then the `limit` best-ranked others that matched anything, together at most
 * `budget.ranked` (the first may take more) and never past `budget.offer`. The rest are held
 * back, with their scores, for /tools and the trace. Pure: the same input gives the same
 * selection, in the tools' own order.
 */
export function selectTools<T extends SearchableTool>(input: SelectionInput<T>): Selection<T> {
  const fixed = fixedOffer(input);
  const { reasons } = fixed;
  let room = input.budget.offer - fixed.tokens;
  let rankedTokens = 0;
  let ranked = 0;
  for (const { tool, score } of input.ranked) {
    if (ranked >= input.limit) break;
    if (reasons.has(toolKey(tool)) || score <= 0) continue;
    const size = input.size(tool);
    if (size > room || (ranked > 0 && rankedTokens + size > input.budget.ranked)) continue;
    reasons.set(toolKey(tool), "score");
    ranked += 1;
    rankedTokens += size;
    room -= size;
  }
  const rank = new Map(input.ranked.map((entry) => [toolKey(entry.tool), entry]));
  const remembered = new Map(input.remembered.map((entry) => [entry.key, entry.reason]));
  const selection: Selection<T> = {
    offered: [],
    heldBack: [],
    ...(fixed.overBudget ? { overBudget: fixed.overBudget } : {}),
  };
  for (const tool of input.tools) {
    const key = toolKey(tool);
    const entry = rank.get(key);
    const score = entry?.score ?? 0;
    const matched = entry?.matched ?? [];
    const reason = reasons.get(key);
    const earlier = remembered.get(key);
    if (reason) selection.offered.push({ tool, reason, score, matched });
    else selection.heldBack.push({ tool, score, matched, ...(earlier ? { remembered: earlier } : {}) });
  }
  return selection;
}
