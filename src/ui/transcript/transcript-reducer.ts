import type { CommandResult } from "../../core/commands/command-types.js";
import type { AgentEvent } from "../../core/agent/events.js";
import type { SavedTurn } from "../../core/session/saved-session.js";
import { sanitizeForTerminal, sanitizeOneLine } from "../../core/policy/sanitize-terminal.js";
import { describeCompaction } from "../../core/window/describe-compaction.js";
import {
  askAbout,
  endStep,
  endTurn,
  errorDuringTurn,
  finishCall,
  proposeCall,
  startTurn,
  streamText,
  updateCall,
} from "./live-turn-reducer.js";
import { serverToolsOffered } from "../../core/tool-search/index.js";
import { inspected } from "./inspector-view.js";
import { resumedTranscript } from "./resumed-transcript.js";
import { append, sanitizeResult } from "./transcript-items.js";
import { fetchCallView } from "./fetch-call-view.js";
import type {
  AskedQuestion,
  AskedView,
  KbSummary,
  QueueView,
  ServerStatusView,
  TranscriptState,
} from "./transcript-types.js";

/** What the person (or the app around the engine) did, as opposed to what the engine reported. */
export type UiAction =
  | { type: "ui_notice"; level: "info" | "warning" | "error"; text: string }
  | { type: "ui_command_started" }
  | { type: "ui_command_result"; input: string; result: CommandResult }
  | { type: "ui_servers"; servers: ServerStatusView[] }
  | { type: "ui_kb"; kb: KbSummary }
  | { type: "ui_model"; name: string | undefined; problem: string | undefined }
  /** How full the context window is now (after /compact or /clear), for the status line. */
  | { type: "ui_context"; tokens: number; window: number }
  /** The messages waiting for the running turn, as the controller holds them. */
  | { type: "ui_queue"; queue: QueueView }
  /** Ctrl+O: open the latest panel in the inspector, or close the inspector. */
  | { type: "ui_inspector_toggle" }
  | { type: "ui_inspector_move"; delta: number }
  /** Scrolls the inspector by rows, or to its top or bottom; `maxOffset` is what the view can show. */
  | { type: "ui_inspector_scroll"; delta: number | "top" | "bottom"; maxOffset: number }
  /** Shows blobs whole in the inspector, or summarized again. */
  | { type: "ui_inspector_whole" }
  /** Prints the inspected entry in full into the transcript, and closes the inspector. */
  | { type: "ui_inspector_print" }
  | { type: "ui_inspector_close" }
  /** Prints a live call (e.g. one awaiting approval with long arguments) in full into the transcript. */
  | { type: "ui_print_live_call"; callId: string }
  | { type: "ui_exit_armed"; armed: boolean }
  | { type: "ui_leave_armed"; armed: boolean }
  /** A paste's end is owed (what comes is pasted text, Enter adds a line), or no longer. */
  | { type: "ui_paste_owed"; owed: boolean }
  /** What is put to the person now, oldest first (OpenQuestions, whenever it changes). */
  | { type: "ui_asking"; asking: readonly AskedQuestion[] }
  /** Prints a sampling request in full into the transcript (its panel shows only its start). */
  | { type: "ui_print_question"; id: number }
  /** A saved session goes on: its turns are drawn again, then what the person should know about it. */
  | { type: "ui_resumed"; turns: SavedTurn[]; notes: string[] };

export type TranscriptAction = AgentEvent | UiAction;

export function initialTranscriptState(): TranscriptState {
  return {
    items: [],
    nextItemId: 1,
    nextCallNumber: 1,
    turn: undefined,
    asking: [],
    finishedCalls: {},
    knowledge: {},
    expandables: [],
    inspector: undefined,
    inspectorScroll: 0,
    inspectorWhole: false,
    servers: [],
    model: { name: undefined, problem: undefined },
    kb: { state: "off" },
    tokens: 0,
    context: undefined,
    queue: { messages: [], held: false },
    epoch: 0,
    exitArmed: false,
    leaveArmed: false,
    commandRunning: false,
    pasteOwed: false,
  };
}

/** Pure: the transcript after one engine event or UI action. `items` only grows, except that /clear starts a new epoch. */
export function transcriptReducer(state: TranscriptState, action: TranscriptAction): TranscriptState {
  switch (action.type) {
    case "turn_start":
      return startTurn(state, action);
    case "kb_hits": {
      if (action.hits.length === 0) return state;
      const id = state.nextItemId;
      const knowledge = {
        hits: action.hits.map((hit) => ({
          ...hit,
          path: sanitizeForTerminal(hit.path),
          heading: sanitizeForTerminal(hit.heading),
          text: sanitizeForTerminal(hit.text),
        })),
        query: state.turn?.input ?? "",
      };
      const next = append(state, { kind: "knowledge", knowledge });
      return {
        ...next,
        ...(next.turn ? { turn: { ...next.turn, backed: true } } : {}),
        knowledge: { ...next.knowledge, [id]: knowledge },
        expandables: [...next.expandables, { kind: "knowledge", itemId: id }],
      };
    }
    case "model_request": {
      const toolSelection = action.selection && {
        offered: serverToolsOffered(action.selection.offered),
        total: action.selection.total,
      };
      const withTools = {
        ...state,
        toolSelection,
        ...(state.turn ? { turn: { ...state.turn, requestTokens: action.contextTokens ?? 0 } } : {}),
      };
      return action.contextTokens !== undefined && action.contextWindow !== undefined
        ? { ...withTools, context: { tokens: action.contextTokens, window: action.contextWindow } }
        : withTools;
    }
    case "context_compacted": {
      const next = append(state, { kind: "notice", level: "info", text: describeCompaction(action) });
      return { ...next, context: { tokens: action.afterTokens, window: action.window } };
    }
    case "model_retry":
      // A wait (a 429's Retry-After, a backoff) says why the spinner runs on.
      return append(state, {
        kind: "notice",
        level: "info",
        text: sanitizeForTerminal(
          `Model request failed (${action.reason}); retrying in ${(action.delayMs / 1000).toFixed(1)} s (attempt ${action.attempt}).`,
        ),
      });
    case "text_delta":
      return streamText(state, action.delta);
    case "model_step_end":
      return endStep(state, action);
    case "tool_call_proposed":
      return proposeCall(state, action.call);
    case "approval_requested":
      return askAbout(state, action.callId, action.reason);
    case "approval_decided": {
      const decision = {
        approved: action.approved,
        by: action.by,
        reason: sanitizeForTerminal(action.reason),
      };
      return updateCall(state, action.callId, {
        decision,
        state: action.approved ? "approved" : "denied",
        // Decided again on a tool its server changed: the badge shows the tier that decided.
        tier: action.tier,
        tierReason: sanitizeForTerminal(action.tierReason),
      });
    }
    case "tool_started":
      return updateCall(state, action.callId, { state: "running" });
    case "tool_progress":
      return updateCall(state, action.callId, {
        progress: {
          progress: action.progress,
          total: action.total,
          // One line: line breaks in it could draw what looks like mcpterm's own panels.
          message: action.message === undefined ? undefined : sanitizeOneLine(action.message),
        },
      });
    case "tool_task":
      // The server's words: untrusted, sanitized before they reach the panel.
      return updateCall(state, action.callId, {
        task: {
          taskId: sanitizeForTerminal(action.taskId),
          status: action.status,
          statusMessage:
            action.statusMessage === undefined ? undefined : sanitizeForTerminal(action.statusMessage),
        },
      });
    case "tool_result":
      return finishCall(state, action);
    case "warning":
      return append(state, { kind: "notice", level: "warning", text: sanitizeForTerminal(action.message) });
    case "error":
      return errorDuringTurn(state, {
        kind: "notice",
        level: "error",
        text: sanitizeForTerminal(action.message),
      });
    case "turn_end":
      return endTurn(state, action);
    case "ui_notice":
      return append(state, { kind: "notice", level: action.level, text: sanitizeForTerminal(action.text) });
    case "ui_command_started":
      return { ...state, commandRunning: true };
    case "ui_command_result": {
      const result = sanitizeResult(action.result);
      const base = result.kind !== "error" && result.after === "clear" ? cleared(state) : state;
      return { ...append(base, { kind: "command", input: action.input, result }), commandRunning: false };
    }
    case "ui_queue":
      return { ...state, queue: action.queue };
    case "ui_servers":
      return {
        ...state,
        servers: action.servers.map((server) => ({
          ...server,
          error: server.error === undefined ? undefined : sanitizeForTerminal(server.error),
        })),
      };
    case "ui_kb":
      return { ...state, kb: action.kb };
    case "ui_model":
      return { ...state, model: { name: action.name, problem: action.problem } };
    case "ui_context":
      return { ...state, context: { tokens: action.tokens, window: action.window } };
    case "ui_inspector_toggle":
      if (state.inspector !== undefined || state.expandables.length === 0)
        return { ...state, inspector: undefined };
      return { ...state, inspector: state.expandables.length - 1, inspectorScroll: 0, inspectorWhole: false };
    case "ui_inspector_move": {
      if (state.inspector === undefined) return state;
      const index = Math.min(Math.max(state.inspector + action.delta, 0), state.expandables.length - 1);
      return { ...state, inspector: index, inspectorScroll: 0, inspectorWhole: false };
    }
    case "ui_inspector_scroll": {
      if (state.inspector === undefined) return state;
      const { delta, maxOffset } = action;
      const from = Math.min(state.inspectorScroll, maxOffset);
      const to = delta === "top" ? 0 : delta === "bottom" ? maxOffset : from + delta;
      return { ...state, inspectorScroll: Math.min(Math.max(0, to), maxOffset) };
    }
    case "ui_inspector_whole":
      return state.inspector === undefined ? state : { ...state, inspectorWhole: !state.inspectorWhole };
    case "ui_inspector_print": {
      const entry = inspected(state);
      if (!entry) return state;
      return { ...append(state, { kind: "detail", ...entry }), inspector: undefined };
    }
    case "ui_inspector_close":
      return { ...state, inspector: undefined };
    case "ui_print_live_call": {
      const call = state.turn?.calls.find((candidate) => candidate.callId === action.callId);
      return call ? append(state, { kind: "detail", call, knowledge: undefined }) : state;
    }
    case "ui_exit_armed":
      return { ...state, exitArmed: action.armed };
    case "ui_leave_armed":
      return { ...state, leaveArmed: action.armed };
    case "ui_paste_owed":
      return { ...state, pasteOwed: action.owed };
    case "ui_asking":
      return askingNow(state, action.asking);
    case "ui_resumed":
      return resumedTranscript(state, action.turns, action.notes);
    case "ui_print_question": {
      const asked = state.asking.find(
        (question) => question.kind === "sampling" && question.id === action.id,
      );
      return asked?.kind === "sampling"
        ? append(state, { kind: "sampling", question: asked.question })
        : state;
    }
  }
}

/** What is asked now; a page to fetch keeps the call view (and number) it got when first asked. */
function askingNow(state: TranscriptState, asked: readonly AskedQuestion[]): TranscriptState {
  let { nextCallNumber } = state;
  const asking = asked.map((question): AskedView => {
    if (question.kind !== "fetch") return question;
    const before = state.asking.find((view) => view.kind === "fetch" && view.callId === question.callId);
    if (before) return before;
    return {
      kind: "fetch",
      callId: question.callId,
      call: fetchCallView(question.callId, nextCallNumber++, question.question),
    };
  });
  return { ...state, asking, nextCallNumber, turn: state.turn && withAskedArguments(state.turn, asked) };
}

/** The turn with each call asked about showing the arguments it is asked with (see AskedQuestion). */
function withAskedArguments(
  turn: NonNullable<TranscriptState["turn"]>,
  asked: readonly AskedQuestion[],
): NonNullable<TranscriptState["turn"]> {
  let calls = turn.calls;
  for (const question of asked) {
    if (question.kind !== "call" || question.arguments === undefined) continue;
    const shown = question.arguments;
    calls = calls.map((call) =>
      call.callId === question.callId && call.args !== shown
        ? { ...call, args: shown, rawArguments: sanitizeForTerminal(JSON.stringify(shown)) }
        : call,
    );
  }
  return calls === turn.calls ? turn : { ...turn, calls };
}

/**
 * /clear: a new conversation on a cleared screen. What was printed cannot be taken back from
 * <Static>, so the items start over in a new epoch (the App keys <Static> by it) once the
 * controller has cleared the screen; servers, model and knowledge base stay.
 */
function cleared(state: TranscriptState): TranscriptState {
  return {
    ...state,
    items: [],
    finishedCalls: {},
    knowledge: {},
    expandables: [],
    inspector: undefined,
    tokens: 0,
    context: undefined,
    epoch: state.epoch + 1,
  };
}
