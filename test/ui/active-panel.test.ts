import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/core/agent/events.js";
import type { SamplingQuestion } from "../../src/core/requests/sampling.js";
import { activePanel } from "../../src/ui/active-panel.js";
import { samplingLines, samplingTerms } from "../../src/ui/question-view.js";
import {
  initialTranscriptState,
  transcriptReducer,
  type TranscriptAction,
} from "../../src/ui/transcript-reducer.js";
import type { TranscriptState } from "../../src/ui/transcript-types.js";
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

const asks = (id: number): TranscriptAction => ({
  type: "ui_question",
  question: { kind: "sampling", id, question: SAMPLING },
});
const decided = (callId: string): AgentEvent => ({
  type: "approval_decided",
  callId,
  approved: false,
  by: "user",
  reason: "the user denied it",
  argumentSecrets: [],
});

function after(...actions: TranscriptAction[]): TranscriptState {
  return actions.reduce(transcriptReducer, initialTranscriptState());
}

const shown = (state: TranscriptState): string | number | undefined => {
  const panel = activePanel(state);
  return panel?.kind === "approval" ? panel.callId : panel?.question.id;
};

describe("one panel at a time, in the order they came", () => {
  it.each<[string, TranscriptAction[], string | number | undefined]>([
    ["nothing asked", [], undefined],
    ["a question alone", [asks(1)], 1],
    ["an approval alone", [TURN_START, ...asking("c1")], "c1"],
    [
      "a question that comes while a call waits for approval waits",
      [TURN_START, ...asking("c1"), asks(1)],
      "c1",
    ],
    ["then it is asked once the call is decided", [TURN_START, ...asking("c1"), asks(1), decided("c1")], 1],
    ["a call proposed while a question is open waits", [asks(1), TURN_START, ...asking("c1")], 1],
    [
      "and is asked once the question is done",
      [asks(1), TURN_START, ...asking("c1"), { type: "ui_question_done", id: 1 }],
      "c1",
    ],
    ["questions go first come, first asked", [asks(1), asks(2)], 1],
    ["the next question follows the one done", [asks(1), asks(2), { type: "ui_question_done", id: 1 }], 2],
    [
      "a question that came after an approval waits for it, however many came before",
      [asks(1), TURN_START, ...asking("c1"), asks(2), { type: "ui_question_done", id: 1 }],
      "c1",
    ],
  ])("%s", (_name, actions, expected) => {
    expect(shown(after(...actions))).toBe(expected);
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
    const printed = after(asks(1), { type: "ui_print_question", id: 1 });
    expect(printed.items).toEqual([{ kind: "sampling", id: 1, question: SAMPLING }]);
    expect(after({ type: "ui_print_question", id: 7 }).items).toEqual([]);
  });
});
