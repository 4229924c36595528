import type { ApprovalAnswer, ApprovalRequest, FetchQuestion } from "../../core/person/approval-request.js";
import type { ElicitationAnswer, ElicitationQuestion } from "../../core/person/elicitation.js";
import type { SamplingAnswer, SamplingQuestion } from "../../core/person/sampling.js";
import type { QuestionAnswer } from "./question-reducer.js";
import type { AskedQuestion } from "../transcript/transcript-types.js";

/** How the person answered an approval panel. */
export type ApprovalKey =
  { kind: "once" } | { kind: "always" } | { kind: "project" } | { kind: "deny"; reason?: string };

/** The ids `/kb add` fetches are asked under, apart from any model call's. */
const FETCH_ID_PREFIX = "kb-add-";

type Notify = (level: "info" | "warning", text: string) => void;

interface Open {
  asked: AskedQuestion;
  /** Takes an answer for this question; false when the answer is not of its kind. */
  answer: (given: Given) => boolean;
  /** Answers no, for `why`. */
  abandon: (why: Unanswered) => void;
}

type Given = { kind: "approval"; key: ApprovalKey } | { kind: "question"; answer: QuestionAnswer };

/**
 * Why a question ends unanswered: its asker gave up (a turn cancelled, a server withdrew), a
 * model's call needed the approval panel a `/kb add` held, or the TUI is closing.
 */
type Unanswered = "withdrawn" | "superseded" | "closing";

/**
 * Everything the TUI puts to the person and has not had an answer to, in the order it came: the
 * one owner of open questions. The transcript is told the whole list at every change (the first
 * is on screen, the rest wait below it) and draws nothing else as asked; a key's answer comes
 * back here, by the question's id, and settles the promise its asker waits on. Questions are
 * asked one at a time, so a panel the person is reading is never replaced under their keys.
 */
export class OpenQuestions {
  private readonly open: Open[] = [];
  private nextQuestionId = 1;
  private nextFetchId = 1;

  constructor(
    /** Told what is asked whenever it changes. */
    private readonly report: (asking: readonly AskedQuestion[]) => void,
    /** Told what became of an answer worth a line in the transcript. */
    private readonly notify: Notify,
  ) {}

  /** A model's call policy said to ask about; the panel is drawn from the live turn's call. */
  approveCall(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    // The turn's call comes first: a `/kb add` still waiting is declined (its command ends
    // saying so), as one typed while a call waits is, so no answer is left unawaited.
    for (const waiting of this.open.filter((open) => open.asked.kind === "fetch"))
      this.settle(waiting, () => (waiting.abandon("superseded"), true));
    const asked = {
      kind: "call" as const,
      callId: request.callId,
      ...(request.argumentsWithheld === true ? { arguments: request.arguments } : {}),
    };
    return this.put<ApprovalAnswer>(asked, signal, {
      unanswered: () => ({ approved: false, reason: "the user cancelled the turn" }),
      take: (given) => (given.kind === "approval" ? approvalAnswer(given.key) : undefined),
    });
  }

  /** `/kb add <url>`: asked in the approval panel a model's call uses, never beside one. */
  approveFetch(question: FetchQuestion, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (this.open.some((open) => open.asked.kind === "call" || open.asked.kind === "fetch"))
      return Promise.resolve({ approved: false, reason: "another call is waiting for your answer" });
    const callId = `${FETCH_ID_PREFIX}${this.nextFetchId++}`;
    return this.put<ApprovalAnswer>({ kind: "fetch", callId, question }, signal, {
      unanswered: (why) => ({
        approved: false,
        reason:
          why === "superseded"
            ? "a call of the model's turn needed your answer first"
            : "the command was given up",
      }),
      take: (given) => (given.kind === "approval" ? approvalAnswer(given.key) : undefined),
    });
  }

  /** A server asks to use the model. */
  sampling(question: SamplingQuestion, signal: AbortSignal): Promise<SamplingAnswer> {
    const id = this.nextQuestionId++;
    return this.put<SamplingAnswer>({ kind: "sampling", id, question }, signal, {
      unanswered: () => ({ approved: false, reason: "the request ended before the user answered" }),
      take: (given) =>
        given.kind === "question" && given.answer.kind === "sampling" ? given.answer.answer : undefined,
      told: (answer) =>
        answer.approved
          ? `Sent server "${question.server}"'s sampling request to ${question.model}${answer.editedText === undefined ? "" : ", as you edited it"}.`
          : undefined,
      server: true,
    });
  }

  /** A server asks for input (a form) or to open a web page; a sign-in asks the same way. */
  elicitation(question: ElicitationQuestion, signal: AbortSignal): Promise<ElicitationAnswer> {
    const id = this.nextQuestionId++;
    return this.put<ElicitationAnswer>({ kind: "elicitation", id, question }, signal, {
      unanswered: () => ({ action: "cancel" }),
      take: (given) =>
        given.kind === "question" && given.answer.kind === "elicitation" ? given.answer.answer : undefined,
      told: (answer) => elicitationTold(question, answer),
      server: true,
    });
  }

  /** The person's answer to the approval panel of `callId` (a model's call or a page to fetch). */
  answerApproval(callId: string, key: ApprovalKey): void {
    this.answer(callId, { kind: "approval", key });
  }

  /** The person's answer to the server question `id`. */
  answerQuestion(id: number, answer: QuestionAnswer): void {
    this.answer(id, { kind: "question", answer });
  }

  /** The TUI is closing: everything still asked is answered no. */
  close(): void {
    for (const open of [...this.open]) this.settle(open, () => (open.abandon("closing"), true));
  }

  private answer(id: string | number, given: Given): void {
    const open = this.open.find((candidate) => idOf(candidate.asked) === id);
    if (open) this.settle(open, () => open.answer(given));
  }

  /** Runs `decide` on an open question; when it settled the question, it leaves the list. */
  private settle(open: Open, decide: () => boolean): void {
    if (!this.open.includes(open) || !decide()) return;
    this.open.splice(this.open.indexOf(open), 1);
    this.report(this.open.map((each) => each.asked));
  }

  private put<Answer>(
    asked: AskedQuestion,
    signal: AbortSignal,
    how: {
      unanswered: (why: Unanswered) => Answer;
      take: (given: Given) => Answer | undefined;
      /** What the transcript keeps of the person's answer, if anything. */
      told?: (answer: Answer) => string | undefined;
      /** A server's question: its withdrawal is worth saying, or the panel just vanishes. */
      server?: boolean;
    },
  ): Promise<Answer> {
    if (signal.aborted) return Promise.resolve(how.unanswered("withdrawn"));
    return new Promise<Answer>((resolve) => {
      const onAbort = (): void => this.settle(open, () => (open.abandon("withdrawn"), true));
      const end = (answer: Answer): void => {
        signal.removeEventListener("abort", onAbort);
        resolve(answer);
      };
      const open: Open = {
        asked,
        answer: (given) => {
          const answer = how.take(given);
          if (answer === undefined) return false;
          const told = how.told?.(answer);
          if (told) this.notify("info", told);
          end(answer);
          return true;
        },
        abandon: (why) => {
          if (why === "withdrawn" && how.server)
            this.notify("warning", "The server withdrew its question before it was answered.");
          end(how.unanswered(why));
        },
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.open.push(open);
      this.report(this.open.map((each) => each.asked));
    });
  }
}

function idOf(asked: AskedQuestion): string | number {
  return asked.kind === "call" || asked.kind === "fetch" ? asked.callId : asked.id;
}

function approvalAnswer(key: ApprovalKey): ApprovalAnswer {
  switch (key.kind) {
    case "once":
      return { approved: true, reason: "approved once by the user" };
    case "always":
      return {
        approved: true,
        remember: "session",
        reason: "approved by the user, and allowed for the rest of this session",
      };
    case "project":
      return {
        approved: true,
        remember: "project",
        reason: "approved by the user, and allowed in this project from now on (saved in their settings)",
      };
    case "deny": {
      const reason = key.reason?.trim();
      return {
        approved: false,
        reason: reason ? `the user denied it and said: ${reason}` : "the user denied it",
      };
    }
  }
}

/** The line the transcript keeps of how the person answered a request for input. */
function elicitationTold(question: ElicitationQuestion, answer: ElicitationAnswer): string {
  const server = `server "${question.server}"`;
  if (question.mode === "url") {
    if (answer.action === "accept")
      return `Opening ${question.url} (${question.domain}) in your browser, as ${server} asked.`;
    return `You chose not to open the page ${server} asked for (${answer.action}).`;
  }
  switch (answer.action) {
    case "accept":
      return `Sent your answers to ${server}'s form.`;
    case "decline":
      return `Declined ${server}'s form.`;
    case "cancel":
      return `Cancelled ${server}'s form.`;
  }
}
