import type { ChatMessage } from "../llm/types.js";
import type { SavedTurn } from "./saved-session.js";
import { fileSafeJson } from "../policy/json-escapes.js";

/** The most a session file may grow to; past it, the file is rewritten to half of it. */
export const MAX_SESSION_BYTES = 8 * 1024 * 1024;
/** Sessions kept per working folder; the oldest beyond it are deleted when a new one starts. */
export const MAX_SAVED_SESSIONS = 50;
/** What a message's text is cut to when even the last turn alone is over the budget. */
const CUT_MESSAGE_CHARS = 4000;
/** What a shown turn's input and answer are cut to in a rewritten file. */
const CUT_TURN_CHARS = 2000;
const CUT_NOTE = "\n[cut when the session was saved, to keep the file small]";

/**
 * Pure: the history to save within `budget` bytes (as JSON): the oldest turns go first, whole
 * (a turn starts at a user message, so every tool call keeps its answers), and the last turn is
 * always kept, its long texts cut if even it alone is too big.
 */
export function fitHistory(history: readonly ChatMessage[], budget: number): ChatMessage[] {
  // Each message's size as written: in bytes, after the file's \u escapes (json-escapes.ts),
  // which can make a text of hidden characters six times its length.
  const sizes = history.map((message) => Buffer.byteLength(fileSafeJson(JSON.stringify(message))) + 1);
  let total = sizes.reduce((sum, size) => sum + size, 0);
  let start = 0;
  const starts = history.flatMap((message, index) => (message.role === "user" && index > 0 ? [index] : []));
  for (const next of starts) {
    if (total <= budget) break;
    total -= sizes.slice(start, next).reduce((sum, size) => sum + size, 0);
    start = next;
  }
  const kept = history.slice(start);
  return total <= budget ? kept : kept.map(cutMessage);
}

/** Pure: the turns to show again, their long inputs and answers cut, for a rewritten file. */
export function fitTurns(turns: readonly SavedTurn[]): SavedTurn[] {
  return turns.map((turn) => ({
    ...turn,
    input: cut(turn.input, CUT_TURN_CHARS),
    answer: cut(turn.answer, CUT_TURN_CHARS),
  }));
}

function cutMessage(message: ChatMessage): ChatMessage {
  if (message.content === null) return message;
  return { ...message, content: cut(message.content, CUT_MESSAGE_CHARS) };
}

function cut(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars)}${CUT_NOTE}`;
}
