import { useInput, usePaste } from "ink";
import { useEffect } from "react";
import { afterEach } from "vitest";
import type { AgentEvent, ProposedToolCall } from "../../src/core/agent/events.js";
import { App, type AppController } from "../../src/ui/app/App.js";
import { ThemeContext, themeFor } from "../../src/ui/parts/theme.js";
import { TranscriptStore } from "../../src/ui/transcript/transcript-store.js";
import { render, type Rendered } from "./ink-render.js";
import type { QuestionAnswer } from "../../src/ui/panels/question-reducer.js";
import { OpenQuestions, type ApprovalKey } from "../../src/ui/panels/open-questions.js";
import type { TranscriptAction } from "../../src/ui/transcript/transcript-reducer.js";
import type { ServerQuestion } from "../../src/ui/transcript/transcript-types.js";

/** The App in ink-testing-library with a fake controller and a clock the test moves by hand. */

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

export function proposed(id: string, args: Record<string, unknown>): ProposedToolCall {
  return {
    id,
    step: 1,
    modelName: "fixture__write_note",
    server: "fixture",
    tool: "write_note",
    arguments: args,
    rawArguments: JSON.stringify(args),
    tier: "dangerous",
    tierReason: "destructiveHint",
    toolNotes: [],
    problem: undefined,
  };
}

export const TURN_START: AgentEvent = {
  type: "turn_start",
  turn: 1,
  input: "write it",
  at: "2026-01-01T00:00:00Z",
};

/** A dangerous call and its approval request, as the engine reports them. */
export function asking(id: string): AgentEvent[] {
  return [
    { type: "tool_call_proposed", call: proposed(id, { name: `${id}.md` }) },
    { type: "approval_requested", callId: id, reason: "dangerous calls need a person's yes" },
  ];
}

/**
 * A controller with the real owner of open questions (OpenQuestions) and nothing else real: what
 * the app answers is recorded, and reaches the owner as the real controller's answers do.
 */
export class FakeController implements AppController {
  readonly answers: ApprovalKey[] = [];
  readonly questions: OpenQuestions;
  /** Calls asked about and not yet decided: deciding one (approval_decided) withdraws its question. */
  private readonly calls = new Map<string, AbortController>();

  constructor(dispatch: (action: TranscriptAction) => void) {
    this.questions = new OpenQuestions(
      (asking) => dispatch({ type: "ui_asking", asking }),
      (level, text) => dispatch({ type: "ui_notice", level, text }),
    );
  }

  /** The engine asks about call `callId`, as a turn does after approval_requested. */
  askCall(callId: string): void {
    const abort = new AbortController();
    this.calls.set(callId, abort);
    void this.questions.approveCall(
      {
        callId,
        server: "fixture",
        tool: "write_note",
        tier: "dangerous",
        tierReason: "destructiveHint",
        reason: "dangerous calls need a person's yes",
        arguments: {},
        notes: [],
      },
      abort.signal,
    );
  }

  /** The engine decided the call (or gave it up): a question still open about it is withdrawn. */
  callDecided(callId: string): void {
    this.calls.get(callId)?.abort();
    this.calls.delete(callId);
  }

  /** The turn ended: every call still asked about is withdrawn with it. */
  turnEnded(): void {
    for (const callId of [...this.calls.keys()]) this.callDecided(callId);
  }

  /** A server asks the person `question`; the returned function withdraws it, as a server may. */
  askQuestion(question: ServerQuestion): () => void {
    const abort = new AbortController();
    if (question.kind === "sampling") void this.questions.sampling(question.question, abort.signal);
    else void this.questions.elicitation(question.question, abort.signal);
    return () => abort.abort();
  }

  readonly submitted: string[] = [];
  cancelled = 0;
  busy = false;
  /** What the app asked to be told if the last message could not be sent; a test calls it to say so. */
  unsent: ((text: string) => void) | undefined;
  submit(text: string, onUnsent?: (text: string) => void): void {
    this.submitted.push(text);
    this.unsent = onUnsent;
  }
  cancel(): boolean {
    if (!this.busy) return false;
    this.cancelled += 1;
    return true;
  }
  /** Messages the app asked to take back or send from the queue, as the test set it up. */
  queued: string[] = [];
  sentQueued = 0;
  sendQueued(): void {
    this.sentQueued += 1;
  }
  takeLastQueued(): string | undefined {
    return this.queued.pop();
  }
  answerApproval(callId: string, key: ApprovalKey): void {
    this.answers.push(key);
    this.questions.answerApproval(callId, key);
  }
  /** Server questions answered, in order. */
  readonly questionAnswers: Array<{ id: number; answer: QuestionAnswer }> = [];
  answerQuestion(id: number, answer: QuestionAnswer): void {
    this.questionAnswers.push({ id, answer });
    this.questions.answerQuestion(id, answer);
  }
  /** What Tab completes to; a promise stands for a server that answers later. */
  words: string[] | Promise<string[]> = ["/help", "/tools", "/trace", "fixture", "write_note"];
  completions(): string[] | Promise<string[]> {
    return this.words;
  }
}

/**
 * Polls every 10 ms until `check` passes. Ink re-renders (and runs effects) asynchronously, so tests wait
 * for the condition they need rather than sleeping a fixed time, which is flaky on a loaded machine.
 */
async function until(app: Rendered, check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${ms} ms waiting for ${what}. Last frame:\n${app.lastFrame() ?? "(nothing drawn yet)"}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Listens to the same Ink input stream as the App. Ink hands every key (and paste) to all listeners in one
 * synchronous emit, so once the probe has seen a key, the App's handler has run for it too: a positive
 * sign that a key was processed even when it has (and should have) no visible effect.
 */
function KeyProbe({ onInput, onReady }: { onInput: (input: string) => void; onReady: () => void }): null {
  useInput(onInput);
  usePaste(onInput);
  // Effects run after Ink attached its stdin listener for this commit (the App's included).
  useEffect(() => {
    onReady();
  }, [onReady]);
  return null;
}

/**
 * The transcript store as the app sees it, and as a test drives it: the engine's events go in as
 * they would from a turn, with what a turn does besides (asking about a call it reports as
 * awaiting approval, withdrawing the question once the call is decided).
 */
export interface HarnessStore {
  getState: TranscriptStore["getState"];
  subscribe: TranscriptStore["subscribe"];
  dispatch: (action: TranscriptAction) => void;
}

export interface AppHarness {
  store: HarnessStore;
  controller: FakeController;
  app: Rendered;
  exits: () => number;
  /** Waits until `check` passes, failing with `what` and the last frame after `ms`. */
  until: (check: () => boolean, what: string, ms?: number) => Promise<void>;
  /** Writes each chunk as one read of the terminal, then waits until the App has received every one. */
  press: (...chunks: string[]) => Promise<void>;
  /** Moves the App's clock forward. */
  advance: (ms: number) => void;
  frame: () => string;
  /** The prompt's text as drawn, lines joined with \n. */
  prompt: () => string;
  /** Reports a new dangerous call (writing `<id>.md`) awaiting approval and waits until its panel is drawn. */
  ask: (id: string) => Promise<void>;
}

export async function renderApp(
  events: AgentEvent[] = [],
  size: { columns?: number; rows?: number } = {},
): Promise<AppHarness> {
  const transcript = new TranscriptStore(undefined, 5);
  const controller = new FakeController(transcript.dispatch);
  const store: HarnessStore = {
    getState: transcript.getState,
    subscribe: transcript.subscribe,
    dispatch: (action) => {
      transcript.dispatch(action);
      if (action.type === "approval_requested") controller.askCall(action.callId);
      if (action.type === "approval_decided" || action.type === "tool_result")
        controller.callDecided(action.callId);
      if (action.type === "turn_end") controller.turnEnded();
    },
  };
  for (const event of events) store.dispatch(event);
  let exits = 0;
  let now = 0;
  const seen: string[] = [];
  let ready = false;
  const onInput = (input: string): void => {
    seen.push(input);
  };
  const onReady = (): void => {
    ready = true;
  };
  const app = render(
    <ThemeContext.Provider value={themeFor({ NO_COLOR: "1" })}>
      <App store={store} controller={controller} onExit={() => (exits += 1)} clock={() => now} />
      <KeyProbe onInput={onInput} onReady={onReady} />
    </ThemeContext.Provider>,
    size,
  );
  cleanups.push(() => {
    app.unmount();
    transcript.dispose();
  });
  const frame = (): string => app.lastFrame() ?? "";
  const wait = (check: () => boolean, what: string, ms?: number): Promise<void> =>
    until(app, check, what, ms);
  const press = async (...chunks: string[]): Promise<void> => {
    const target = seen.length + chunks.length;
    for (const chunk of chunks) app.stdin.write(chunk);
    // A lone Esc is delivered on a later turn of the event loop, so this also keeps it from merging with the next key.
    await wait(
      () => seen.length >= target,
      `the app to receive ${JSON.stringify(chunks)} (received so far: ${JSON.stringify(seen)})`,
    );
  };
  const ask = async (id: string): Promise<void> => {
    for (const event of asking(id)) store.dispatch(event);
    await wait(
      () => frame().includes("Allow this call?") && frame().includes(`"name": "${id}.md"`),
      `the panel for ${id}`,
    );
  };
  await wait(() => ready && app.lastFrame() !== undefined, "the app to mount and listen for keys");
  return {
    store,
    controller,
    app,
    exits: () => exits,
    until: wait,
    press,
    advance: (ms) => {
      now += ms;
    },
    frame,
    prompt: () => promptText(frame()),
    ask,
  };
}

/** The prompt box is the last box whose first line starts with "› "; its lines are "│ › …│" then "│   …│". */
function promptText(frame: string): string {
  const lines = frame.split("\n");
  const first = lines.findLastIndex((line) => line.startsWith("│ › "));
  if (first === -1) return "";
  const body: string[] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith("│")) break;
    body.push(line.slice(4, -1).trimEnd());
  }
  return body.join("\n");
}
