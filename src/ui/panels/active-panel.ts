import type { AskedView, ServerQuestion, TranscriptState } from "../transcript/transcript-types.js";

/** What is put to the person now: one approval or one server question, never two at once. */
export type ActivePanel =
  { kind: "approval"; callId: string } | { kind: "question"; question: ServerQuestion } | undefined;

/**
 * Pure: the panel to show — the oldest of what is asked (OpenQuestions keeps them in the order
 * they came), so a panel the person is reading or filling in is never replaced under their keys.
 */
export function activePanel(state: TranscriptState): ActivePanel {
  return panelOf(state.asking[0]);
}

export function panelOf(asked: AskedView | undefined): ActivePanel {
  if (asked === undefined) return undefined;
  if (asked.kind === "call" || asked.kind === "fetch") return { kind: "approval", callId: asked.callId };
  return { kind: "question", question: asked };
}
