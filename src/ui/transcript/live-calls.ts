import type { ToolCallView, TranscriptState } from "./transcript-types.js";

/** The live turn's calls as the screen orders them around an approval panel. */
export interface LiveCalls {
  /** The call the person is asked about now. */
  asking: ToolCallView | undefined;
  /** Its place among the calls of its step still to be decided: "1 of 2". */
  position: { index: number; total: number } | undefined;
  /** Calls proposed with it and not decided yet: asked (or approved by policy) after it, so drawn below it. */
  waiting: ToolCallView[];
  /** Every other live call, drawn above the panel. */
  others: ToolCallView[];
}

/** Pure: splits the live calls so a call waiting its turn is never drawn above the one being asked. */
export function liveCalls(state: TranscriptState): LiveCalls {
  const calls = state.turn?.calls ?? [];
  const first = state.asking[0];
  if (first?.kind === "fetch") return { asking: first.call, position: undefined, waiting: [], others: calls };
  const asking = first?.kind === "call" ? calls.find((call) => call.callId === first.callId) : undefined;
  if (!asking) return { asking: undefined, position: undefined, waiting: [], others: calls };
  const waiting = calls.filter((call) => call !== asking && call.state === "proposed");
  const index = asking.askOrdinal ?? 1;
  return {
    asking,
    position: { index, total: index + waiting.length },
    waiting,
    others: calls.filter((call) => call !== asking && call.state !== "proposed"),
  };
}
