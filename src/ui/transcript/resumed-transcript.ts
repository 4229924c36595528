import type { CallOutcome, SavedCall } from "../../core/agent/session.js";
import type { SavedTurn } from "../../core/session/saved-session.js";
import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";
import { answerItems } from "./answer-sections.js";
import { attachmentLine } from "./live-turn-reducer.js";
import { append, type NewItem } from "./transcript-items.js";
import type { TranscriptState } from "./transcript-types.js";

/** The most turns of a resumed session drawn again; the model still has the whole history. */
export const RESUMED_TURNS_SHOWN = 50;

/**
 * A resumed session's transcript, drawn again from what it saved: each turn's message, the tools
 * it called and its answer, then the notes about the resume. Everything came from a file that may
 * have come with a cloned project, so every string is sanitized here, like a model's text.
 */
export function resumedTranscript(
  state: TranscriptState,
  turns: readonly SavedTurn[],
  notes: readonly string[],
): TranscriptState {
  const shown = turns.slice(-RESUMED_TURNS_SHOWN);
  const items: NewItem[] = [];
  if (shown.length < turns.length)
    items.push({
      kind: "notice",
      level: "info",
      text: `${turns.length - shown.length} earlier turns are not shown (the model still has them).`,
    });
  for (const turn of shown) {
    items.push({
      kind: "user",
      text: sanitizeForTerminal(turn.input),
      ...(turn.attachments.length > 0 ? { attachments: turn.attachments.map(attachmentLine) } : {}),
    });
    if (turn.tools.length > 0)
      items.push({ kind: "notice", level: "info", text: sanitizeForTerminal(callsLine(turn.tools)) });
    if (turn.answer.trim() !== "") items.push(...answerItems(turn.answer, "body", true).items);
    if (turn.reason !== "completed")
      items.push({
        kind: "notice",
        level: "warning",
        text: `That turn ended: ${turn.reason.replace("_", " ")}.`,
      });
  }
  for (const note of notes) items.push({ kind: "notice", level: "info", text: sanitizeForTerminal(note) });
  return append(state, ...items);
}

/** How each outcome reads in a resumed turn; a call saved before outcomes were kept was called. */
const OUTCOME_WORDS: ReadonlyArray<[CallOutcome | undefined, string]> = [
  ["done", "called"],
  [undefined, "called"],
  ["failed", "failed"],
  ["denied", "denied"],
  ["cancelled", "cancelled"],
  ["not_run", "not run"],
];

/** `called a/x · denied b/y, b/z · failed c/w`: each call as what it was, not all as called. */
export function callsLine(calls: readonly SavedCall[]): string {
  const groups = new Map<string, string[]>();
  for (const [outcome, word] of OUTCOME_WORDS) {
    const names = calls
      .filter((call) => call.outcome === outcome)
      .map((call) => `${call.server}/${call.tool}`);
    if (names.length > 0) groups.set(word, [...(groups.get(word) ?? []), ...names]);
  }
  return [...groups].map(([word, names]) => `${word} ${[...new Set(names)].join(", ")}`).join(" · ");
}
