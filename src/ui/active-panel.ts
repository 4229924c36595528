import type { ServerQuestion, TranscriptState } from "./transcript-types.js";

/** What is put to the person now: one approval or one server question, never two at once. */
export type ActivePanel =
  { kind: "approval"; callId: string } | { kind: "question"; question: ServerQuestion } | undefined;

/**
 * Pure: the panel to show. Approvals and servers' questions are asked one at a time in the order
 * they came, so a panel the person is reading or filling in is never replaced under their keys:
 * a question that comes while a call waits for approval is asked once the call is decided, and
 * a call proposed while a question is open waits until it is answered.
 */
export function activePanel(state: TranscriptState): ActivePanel {
  const question = state.questions[0];
  const callId = state.approvalCallId;
  if (question && (callId === undefined || question.order < (state.approvalOrder ?? Infinity)))
    return { kind: "question", question };
  return callId === undefined ? undefined : { kind: "approval", callId };
}
