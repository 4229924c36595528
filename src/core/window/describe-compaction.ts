import type { CompactionTrigger, Dropped } from "./compaction.js";
import { groupedNumber } from "../text/grouped-number.js";

const WHY: Record<CompactionTrigger, string> = {
  auto: "near the context window's limit",
  manual: "on /compact",
  overflow: "after the server refused the request as too long",
};

/** One line for a compaction: `Compacted 9,800 → 2,100 tokens of 8,192 (…): 3 turns summarized, 2 tool results shortened.` */
export function describeCompaction(event: {
  trigger: CompactionTrigger;
  window: number;
  beforeTokens: number;
  afterTokens: number;
  dropped: readonly Dropped[];
}): string {
  const n = (value: number) => groupedNumber(value);
  const results = event.dropped.filter((item) => item.kind === "tool_result").length;
  const messages = event.dropped.filter((item) => item.kind === "message").length;
  const calls = event.dropped.filter((item) => item.kind === "tool_arguments").length;
  const parts = event.dropped.flatMap((item) =>
    item.kind === "turns"
      ? [
          `${item.turns} earlier ${item.turns === 1 ? "turn" : "turns"} (${item.messages} messages) ${item.summary === "model" ? "summarized by the model" : "outlined (the model could not summarize them)"}`,
        ]
      : [],
  );
  if (results > 0) parts.push(`${results} tool ${results === 1 ? "result" : "results"} shortened`);
  if (calls > 0) parts.push(`the arguments of ${calls} tool ${calls === 1 ? "call" : "calls"} shortened`);
  if (messages > 0) parts.push(`${messages} long ${messages === 1 ? "message" : "messages"} cut`);
  const what = parts.length > 0 ? parts.join(", ") : "nothing to drop";
  return `Compacted the conversation ${WHY[event.trigger]}: about ${n(event.beforeTokens)} → ${n(event.afterTokens)} tokens of a ${n(event.window)}-token window; ${what}.`;
}
