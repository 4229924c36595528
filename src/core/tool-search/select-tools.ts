import type { SearchableTool } from "./tool-document.js";
import type { RankedTool } from "./tool-index.js";

/**
 * Why a tool is in a request: mcpterm's own tools are `always` there; the person or the config
 * `pinned` it; the model `used` it earlier in the session; the model `found` it with
 * search_tools; or it ranked among the best for the conversation (`score`).
 */
export type OfferReason = "always" | "pinned" | "used" | "found" | "score";

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
}

export interface SelectionInput<T extends SearchableTool> {
  /** Every tool that may be offered, in the order they are listed (requests keep that order). */
  tools: readonly T[];
  /** The tools ranked for the conversation, best first (ToolIndex.rank). */
  ranked: ReadonlyArray<RankedTool<T>>;
  always: (tool: T) => boolean;
  pinned: (tool: T) => boolean;
  /** Model names of tools the model called earlier in the session, and found with search_tools. */
  used: ReadonlySet<string>;
  found: ReadonlySet<string>;
  /** How many of the best-ranked tools are offered besides the rest. */
  limit: number;
  /** Estimated tokens of a tool's definition, and the most the ranked ones may take together. */
  size: (tool: T) => number;
  maxTokens: number;
}

export interface Selection<T extends SearchableTool = SearchableTool> {
  offered: Array<OfferedTool<T>>;
  heldBack: Array<HeldBackTool<T>>;
}

/**
 * Which tools one request offers: mcpterm's own, the pinned, the used and the found ones, and
 * the `limit` best-ranked others that matched anything, as long as those fit in `maxTokens`
 * (the first always does). The rest are held back, with their scores, for /tools and the trace.
 * Pure: the same input gives the same selection, in the tools' own order.
 */
export function selectTools<T extends SearchableTool>(input: SelectionInput<T>): Selection<T> {
  const rank = new Map(input.ranked.map((entry) => [entry.tool.modelName, entry]));
  const reasons = new Map<string, OfferReason>();
  for (const tool of input.tools) {
    const reason = fixedReason(tool, input);
    if (reason) reasons.set(tool.modelName, reason);
  }
  let ranked = 0;
  let tokens = 0;
  for (const { tool, score } of input.ranked) {
    if (ranked >= input.limit) break;
    if (reasons.has(tool.modelName) || score <= 0) continue;
    const size = input.size(tool);
    if (ranked > 0 && tokens + size > input.maxTokens) continue;
    reasons.set(tool.modelName, "score");
    ranked += 1;
    tokens += size;
  }
  const selection: Selection<T> = { offered: [], heldBack: [] };
  for (const tool of input.tools) {
    const entry = rank.get(tool.modelName);
    const score = entry?.score ?? 0;
    const matched = entry?.matched ?? [];
    const reason = reasons.get(tool.modelName);
    if (reason) selection.offered.push({ tool, reason, score, matched });
    else selection.heldBack.push({ tool, score, matched });
  }
  return selection;
}

function fixedReason<T extends SearchableTool>(tool: T, input: SelectionInput<T>): OfferReason | undefined {
  if (input.always(tool)) return "always";
  if (input.pinned(tool)) return "pinned";
  if (input.used.has(tool.modelName)) return "used";
  if (input.found.has(tool.modelName)) return "found";
  return undefined;
}
