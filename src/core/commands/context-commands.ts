import type { SessionStats } from "../agent/session.js";
import type { ModelPricing } from "../config/config-types.js";
import type { Usage } from "../llm/types.js";
import { TOOL_SHARE_WARNING } from "../window/context-budget.js";
import type { CommandResult, SlashCommand } from "./command-types.js";

/** The last turns /stats lists one by one; the total covers them all. */
const SHOWN_TURNS = 20;

const NO_CONVERSATION: CommandResult = { kind: "error", message: "There is no conversation here to manage." };

export const compactCommand: SlashCommand = {
  name: "compact",
  usage: "[focus]",
  description: "summarize the older turns and shorten old tool results now, keeping [focus] above all",
  run: async (context, _args, typed) => {
    if (!context.conversation) return NO_CONVERSATION;
    // The focus as typed, quotes and apostrophes included: it is text for the summary.
    const focus = typed.trim();
    const result = await context.conversation.compact(focus === "" ? undefined : focus);
    return result.ok ? { kind: "text", text: result.text } : { kind: "error", message: result.reason };
  },
};

export const statsCommand: SlashCommand = {
  name: "stats",
  usage: "",
  description: "tokens per turn and in all, cost, the context window and the fixed prompt's size",
  run: async (context) => {
    if (!context.conversation) return NO_CONVERSATION;
    const stats = await context.conversation.stats();
    if (!stats)
      return { kind: "error", message: "No model is set, so there is nothing to count yet (/model <name>)." };
    return { kind: "text", text: renderStats(stats, context.conversation.pricing) };
  },
};

/** Pure, so it is tested with plain numbers. */
export function renderStats(stats: SessionStats, pricing: ModelPricing | undefined): string {
  const n = (value: number) => value.toLocaleString("en-US");
  const percent = (part: number, whole: number) => `${Math.round((100 * part) / Math.max(1, whole))}%`;
  const { window } = stats;
  const origin =
    window.source === "default" ? `mcpterm's default, ${window.detail}` : `from ${window.detail}`;
  const lines = [
    `Model ${stats.model}: context window ${n(window.tokens)} tokens, ${origin}.`,
    `Context now: about ${n(stats.contextTokens)} tokens, ${percent(stats.contextTokens, window.tokens)} of the window; a prompt may take ${n(stats.promptBudget)}, the rest is kept for the answer. Compacted ${stats.compactions} ${stats.compactions === 1 ? "time" : "times"} this session.`,
    `Fixed prompt: about ${n(stats.systemPromptTokens + stats.toolTokens)} tokens before you type, ${percent(stats.systemPromptTokens + stats.toolTokens, window.tokens)} of the window: the system prompt ${n(stats.systemPromptTokens)}, ${stats.toolCount} tool definitions ${n(stats.toolTokens)}.`,
  ];
  if (stats.toolTokens > window.tokens * TOOL_SHARE_WARNING) {
    lines.push(
      `⚠ The tool definitions take ${percent(stats.toolTokens, window.tokens)} of the window (more than ${Math.round(TOOL_SHARE_WARNING * 100)}%); offer fewer: /tools hide <server> (or <server>/<tool>) for this session, or "includeTools", "excludeTools" or "disabled": true on a server in mcp.config.json for good.`,
    );
  }
  lines.push("", "turn   prompt   completion   cached");
  const shown = stats.turns.slice(-SHOWN_TURNS);
  if (shown.length < stats.turns.length) lines.push(`… ${stats.turns.length - shown.length} earlier turns`);
  for (const { turn, usage } of shown) lines.push(row(String(turn), usage));
  lines.push(row("all", stats.usage));
  if (pricing) lines.push("", costLine(stats.usage, pricing));
  else lines.push("", "Cost: set model.pricing in mcp.config.json (prices per million tokens) to see it.");
  return lines.join("\n");
}

function row(label: string, usage: Usage): string {
  const n = (value: number) => value.toLocaleString("en-US");
  return `${label.padEnd(4)} ${n(usage.promptTokens).padStart(8)} ${n(usage.completionTokens).padStart(12)} ${n(usage.cachedTokens ?? 0).padStart(8)}`;
}

/** Cached prompt tokens are billed at their own price where one is given, else as input. */
export function costOf(usage: Usage, pricing: ModelPricing): number {
  const cached = Math.min(usage.cachedTokens ?? 0, usage.promptTokens);
  const cachedPrice = pricing.cachedInputPerMillion ?? pricing.inputPerMillion;
  return (
    ((usage.promptTokens - cached) * pricing.inputPerMillion +
      cached * cachedPrice +
      usage.completionTokens * pricing.outputPerMillion) /
    1_000_000
  );
}

function costLine(usage: Usage, pricing: ModelPricing): string {
  const cost = costOf(usage, pricing);
  return `Cost this session: ${cost.toFixed(cost < 1 ? 4 : 2)} ${pricing.currency} (model.pricing: ${pricing.inputPerMillion} in, ${pricing.cachedInputPerMillion ?? pricing.inputPerMillion} cached, ${pricing.outputPerMillion} out per million tokens).`;
}
