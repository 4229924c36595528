import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/core/person/approval-request.js";
import type { SamplingQuestion } from "../../src/core/person/sampling.js";
import { activePanel } from "../../src/ui/panels/active-panel.js";
import { OpenQuestions } from "../../src/ui/panels/open-questions.js";
import { samplingLines, samplingTerms } from "../../src/ui/transcript/sampling-lines.js";
import {
  initialTranscriptState,
  transcriptReducer,
  type TranscriptAction,
} from "../../src/ui/transcript/transcript-reducer.js";
import type { TranscriptState } from "../../src/ui/transcript/transcript-types.js";
import { asking, TURN_START } from "../support/app-harness.js";

const SAMPLING: SamplingQuestion = {
  server: "everything",
  messages: [{ role: "user", text: "line one\nline two" }],
  systemPrompt: "be brief",
  modelHints: [],
  maxTokens: 50,
  temperature: undefined,
  model: "scripted",
};

/** A step of the story: the engine asks about a call, a server asks, or something is answered. */
type Step =
  | { ask: "call"; id: string }
  | { ask: "question" }
  | { answer: "call"; id: string }
  | { answer: "question"; id: number };

/**
 * What the transcript shows after `steps`, driving the real owner of open questions: its reports
 * go through the transcript reducer, and the active panel is read from the state they make.
 */
function shownAfter(...steps: Step[]): string | number | undefined {
  let state = initialTranscriptState();
  const questions = new OpenQuestions(
    (asking) => (state = transcriptReducer(state, { type: "ui_asking", asking })),
    () => undefined,
  );
  const never = new AbortController().signal;
  for (const step of steps) {
    if ("ask" in step && step.ask === "call") {
      state = [TURN_START, ...asking(step.id)].reduce(transcriptReducer, state);
      void questions.approveCall(request(step.id), never);
    } else if ("ask" in step) void questions.sampling(SAMPLING, never);
    else if (step.answer === "call") questions.answerApproval(step.id, { kind: "deny" });
    else questions.answerQuestion(step.id, { kind: "sampling", answer: { approved: false, reason: "no" } });
  }
  const panel = activePanel(state);
  return panel?.kind === "approval" ? panel.callId : panel?.question.id;
}

const request = (callId: string): ApprovalRequest => ({
  callId,
  server: "fixture",
  tool: "write_note",
  tier: "dangerous",
  tierReason: "destructiveHint",
  reason: "dangerous calls need a person's yes",
  arguments: {},
  notes: [],
});
const call = (id: string): Step => ({ ask: "call", id });
const question: Step = { ask: "question" };
const callAnswered = (id: string): Step => ({ answer: "call", id });
const questionAnswered = (id: number): Step => ({ answer: "question", id });

function after(...actions: TranscriptAction[]): TranscriptState {
  return actions.reduce(transcriptReducer, initialTranscriptState());
}

describe("one panel at a time, in the order they came", () => {
  it.each<[string, Step[], string | number | undefined]>([
    ["nothing asked", [], undefined],
    ["a question alone", [question], 1],
    ["an approval alone", [call("c1")], "c1"],
    ["a question that comes while a call waits for approval waits", [call("c1"), question], "c1"],
    ["then it is asked once the call is decided", [call("c1"), question, callAnswered("c1")], 1],
    ["a call proposed while a question is open waits", [question, call("c1")], 1],
    ["and is asked once the question is done", [question, call("c1"), questionAnswered(1)], "c1"],
    ["questions go first come, first asked", [question, question], 1],
    ["the next question follows the one done", [question, question, questionAnswered(1)], 2],
    [
      "a question that came after an approval waits for it, however many came before",
      [question, call("c1"), question, questionAnswered(1)],
      "c1",
    ],
    [
      "an answer to what is not asked changes nothing",
      [call("c1"), callAnswered("c2"), questionAnswered(4)],
      "c1",
    ],
  ])("%s", (_name, steps, expected) => {
    expect(shownAfter(...steps)).toBe(expected);
  });
});

describe("a sampling request as the person reads it", () => {
  it("lists the system prompt and each message by role, later lines indented", () => {
    expect(samplingLines(SAMPLING)).toEqual(["system: be brief", "user: line one", "  line two"]);
    expect(samplingTerms(SAMPLING)).toBe("scripted answers · at most 50 tokens");
    expect(samplingTerms({ ...SAMPLING, temperature: 0.7 })).toBe(
      "scripted answers · at most 50 tokens · temperature 0.7",
    );
  });

  it("is printed whole into the transcript when asked, only while it is open", () => {
    const asked = { kind: "sampling", id: 1, question: SAMPLING } as const;
    const printed = after({ type: "ui_asking", asking: [asked] }, { type: "ui_print_question", id: 1 });
    expect(printed.items).toEqual([{ kind: "sampling", id: 1, question: SAMPLING }]);
    expect(after({ type: "ui_print_question", id: 7 }).items).toEqual([]);
  });
});
