import type { AgentEvent, MessageAttachment, ProposedToolCall } from "../../core/agent/events.js";
import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";
import { splitAtSafePoint } from "../markdown/markdown-split.js";
import { estimateStreamedTokens } from "../../core/window/token-estimate.js";
import { answerItems } from "./answer-sections.js";
import { append, type NewItem } from "./transcript-items.js";
import type { LiveTurn, ToolCallView, TranscriptState } from "./transcript-types.js";

/** The live turn's part of the transcript reducer: streaming text, calls and the turn's end. */

export function startTurn(
  state: TranscriptState,
  start: Extract<AgentEvent, { type: "turn_start" }>,
): TranscriptState {
  const startedAt = Date.parse(start.at);
  return append(
    {
      ...state,
      turn: {
        number: start.turn,
        input: start.input,
        text: "",
        replyStarted: false,
        section: "body",
        calls: [],
        startedAt: Number.isNaN(startedAt) ? 0 : startedAt,
        streamedTokens: 0,
        requestTokens: 0,
        answerTokens: 0,
        askedInStep: 0,
        backed: (start.attached?.attachments.length ?? 0) > 0,
      },
    },
    {
      kind: "user",
      text: sanitizeForTerminal(start.input),
      ...(start.attached ? { attachments: start.attached.attachments.map(attachmentLine) } : {}),
    },
  );
}

/** `⎘ @everything:demo://… · text/markdown, 3,120 characters`, `⎘ @src/a.ts · …`, or the prompt a message came from. */
export function attachmentLine(attachment: MessageAttachment): string {
  const line =
    attachment.kind === "prompt"
      ? `↳ from the prompt /${attachment.server}:${attachment.name} · ${attachment.detail}`
      : attachment.kind === "file"
        ? `⎘ @${attachment.name} · ${attachment.detail}`
        : attachment.kind === "stdin"
          ? `⎘ piped in · ${attachment.detail}`
          : `⎘ @${attachment.server}:${attachment.name} · ${attachment.detail}`;
  return sanitizeForTerminal(line);
}

export function streamText(state: TranscriptState, delta: string): TranscriptState {
  return withTurn(state, (turn) =>
    flushSafeText(state, {
      ...turn,
      text: turn.text + delta,
      streamedTokens: turn.streamedTokens + estimateStreamedTokens(delta),
    }),
  );
}

/** The step's text is final, and the model's count replaces the estimate (kept when none came). */
export function endStep(
  state: TranscriptState,
  end: Extract<AgentEvent, { type: "model_step_end" }>,
): TranscriptState {
  const estimate = Math.ceil(state.turn?.streamedTokens ?? 0);
  const next = withTurn(state, (turn) =>
    flushAllText(state, {
      ...turn,
      streamedTokens: 0,
      requestTokens: 0,
      answerTokens: turn.answerTokens + (end.usage?.completionTokens ?? estimate),
      askedInStep: 0,
    }),
  );
  const tokens = state.tokens + (end.usage?.totalTokens ?? estimate);
  // The confirmed and inferred parts close one step's text: the next step starts with its body.
  return next.turn ? { ...next, turn: { ...next.turn, section: "body" }, tokens } : { ...next, tokens };
}

/** A proposed call is drawn, and can be opened in the inspector, from now on: Ctrl+O opens the newest. */
export function proposeCall(state: TranscriptState, call: ProposedToolCall): TranscriptState {
  return withTurn(state, (turn) => [
    {
      ...state,
      nextCallNumber: state.nextCallNumber + 1,
      expandables: [...state.expandables, { kind: "tool", callId: call.id }],
    },
    { ...turn, calls: [...turn.calls, callView(call, state.nextCallNumber)] },
  ]);
}

export function askAbout(state: TranscriptState, callId: string, reason: string): TranscriptState {
  const ordinal = (state.turn?.askedInStep ?? 0) + 1;
  const next = updateCall(state, callId, {
    state: "awaiting_approval",
    askReason: sanitizeForTerminal(reason),
    askOrdinal: ordinal,
  });
  return withTurn(next, (turn) => [next, { ...turn, askedInStep: ordinal }]);
}

/** Applies `change` to the live turn, which may also return a changed state (e.g. with printed items). */
function withTurn(
  state: TranscriptState,
  change: (turn: LiveTurn) => [TranscriptState, LiveTurn],
): TranscriptState {
  if (!state.turn) return state;
  const [next, turn] = change(state.turn);
  return { ...next, turn };
}

/** Moves the finished paragraphs of the streaming text into the transcript. */
function flushSafeText(state: TranscriptState, turn: LiveTurn): [TranscriptState, LiveTurn] {
  const [done, rest] = splitAtSafePoint(turn.text);
  if (!done.trim()) return [state, turn];
  return printAnswer(state, turn, done, rest);
}

function flushAllText(state: TranscriptState, turn: LiveTurn): [TranscriptState, LiveTurn] {
  const text = turn.text.replace(/\s+$/, "");
  if (!text) return [state, { ...turn, text: "" }];
  return printAnswer(state, turn, text, "");
}

/** Prints finished answer text, its confirmed and inferred parts apart from the body. */
function printAnswer(
  state: TranscriptState,
  turn: LiveTurn,
  done: string,
  rest: string,
): [TranscriptState, LiveTurn] {
  const { items, section } = answerItems(done, turn.section, !turn.replyStarted, turn.backed);
  return [append(state, ...items), { ...turn, text: rest, replyStarted: true, section }];
}

function callView(call: ProposedToolCall, number: number): ToolCallView {
  const label = call.server && call.tool ? `${call.server}/${call.tool}` : call.modelName;
  return {
    callId: call.id,
    number,
    label: sanitizeForTerminal(label),
    tool: call.tool === undefined ? undefined : sanitizeForTerminal(call.tool),
    server: call.server === undefined ? undefined : sanitizeForTerminal(call.server),
    tier: call.tier,
    tierReason: call.tierReason === undefined ? undefined : sanitizeForTerminal(call.tierReason),
    toolNotes: call.toolNotes.map((note) => sanitizeForTerminal(note)),
    args: call.arguments,
    rawArguments: sanitizeForTerminal(call.rawArguments),
    problem: call.problem === undefined ? undefined : sanitizeForTerminal(call.problem),
    state: "proposed",
    progress: undefined,
    askReason: undefined,
    askOrdinal: undefined,
    decision: undefined,
    result: undefined,
  };
}

export function updateCall(
  state: TranscriptState,
  callId: string,
  change: Partial<ToolCallView>,
): TranscriptState {
  return withTurn(state, (turn) => [
    state,
    { ...turn, calls: turn.calls.map((call) => (call.callId === callId ? { ...call, ...change } : call)) },
  ]);
}

export function finishCall(
  state: TranscriptState,
  result: Extract<AgentEvent, { type: "tool_result" }>,
): TranscriptState {
  const call = state.turn?.calls.find((candidate) => candidate.callId === result.callId);
  if (!state.turn || !call) return state;
  const finished: ToolCallView = {
    ...call,
    state: finalState(call, result),
    result: {
      ok: result.ok,
      display: sanitizeForTerminal(result.display),
      ...(result.structured === undefined ? {} : { structured: sanitizeForTerminal(result.structured) }),
      ...(result.outputSchemaProblem === undefined
        ? {}
        : { outputSchemaProblem: sanitizeForTerminal(result.outputSchemaProblem) }),
      ...(result.attachments === undefined
        ? {}
        : { attachments: result.attachments.map((attachment) => sanitizeForTerminal(attachment)) }),
      forModel: sanitizeForTerminal(result.forModel),
      truncated: result.truncated,
      redactions: result.redactions.map((rule) => sanitizeForTerminal(rule)),
      durationMs: result.durationMs,
      failure: result.failure,
    },
  };
  // Text streamed before the calls belongs above their panels.
  const [flushed, turn] = flushAllText(state, state.turn);
  return printFinishedCalls({
    ...flushed,
    turn: {
      ...turn,
      calls: turn.calls.map((candidate) => (candidate.callId === call.callId ? finished : candidate)),
      backed: turn.backed || result.ok,
    },
    finishedCalls: { ...flushed.finishedCalls, [call.callId]: finished },
  });
}

/**
 * Prints the live turn's finished calls in the order the model proposed them: a call that
 * finishes before one proposed ahead of it stays in the live area, done, until that one is.
 */
function printFinishedCalls(state: TranscriptState): TranscriptState {
  const calls = state.turn?.calls ?? [];
  const waiting = calls.findIndex((call) => call.result === undefined);
  const done = waiting === -1 ? calls.length : waiting;
  if (!state.turn || done === 0) return state;
  const next = append(state, ...calls.slice(0, done).map((call) => ({ kind: "tool" as const, call })));
  return { ...next, turn: { ...state.turn, calls: calls.slice(done) } };
}

function finalState(
  call: ToolCallView,
  result: { ok: boolean; failure: string | undefined },
): ToolCallView["state"] {
  if (result.ok) return "done";
  if (call.decision && !call.decision.approved) return "denied";
  if (result.failure === "cancelled") return "cancelled";
  return "failed";
}

export function endTurn(
  state: TranscriptState,
  end: Extract<AgentEvent, { type: "turn_end" }>,
): TranscriptState {
  if (!state.turn) return state;
  const [flushed, turn] = flushAllText(state, state.turn);
  // Calls that never reported a result were cut off with the turn.
  const cut = turn.calls.filter((call) => call.result === undefined);
  const calls = turn.calls.map((call) =>
    call.result === undefined ? { ...call, state: "cancelled" as const } : call,
  );
  let next = append(flushed, ...calls.map((call) => ({ kind: "tool" as const, call })));
  next = {
    ...next,
    finishedCalls: { ...next.finishedCalls, ...Object.fromEntries(calls.map((call) => [call.callId, call])) },
  };
  // A stream that failed (cut, stalled, an error sent mid-answer) leaves its text as an Esc does.
  if (end.reason === "error" && turn.replyStarted)
    next = append(next, { kind: "notice", level: "warning", text: interruptedNotice(true, cut.length > 0) });
  if (end.reason === "aborted") {
    // The cut-off step's request was sent and part of its answer streamed: it counts, as estimated.
    next = { ...next, tokens: next.tokens + turn.requestTokens + Math.ceil(turn.streamedTokens) };
    next = append(next, {
      kind: "notice",
      level: "warning",
      text: interruptedNotice(turn.replyStarted, cut.length > 0),
    });
  }
  return { ...next, turn: undefined };
}

/** Says what an interrupted turn left behind: only an answer that was started is called partial. */
function interruptedNotice(answered: boolean, callsCut: boolean): string {
  const what = answered ? "Interrupted: the answer above is partial" : "Interrupted before an answer";
  return `${what}${callsCut ? "; calls not yet finished were cancelled" : ""}.`;
}

/**
 * An error while a turn streams goes below the text already streamed, not above it: the text is
 * printed first, and the error after it reads as what stopped it.
 */
export function errorDuringTurn(state: TranscriptState, notice: NewItem): TranscriptState {
  if (!state.turn) return append(state, notice);
  const [flushed, turn] = flushAllText(state, state.turn);
  return append({ ...flushed, turn }, notice);
}
