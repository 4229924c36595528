import type { CommandResult } from "../core/commands/command-types.js";
import type { AgentEvent, ProposedToolCall } from "../core/agent/events.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { splitAtSafePoint } from "./markdown-split.js";
import type {
  KbSummary,
  LiveTurn,
  ServerSummary,
  ToolCallView,
  TranscriptItem,
  TranscriptState,
} from "./transcript-types.js";

/** What the person (or the app around the engine) did, as opposed to what the engine reported. */
export type UiAction =
  | { type: "ui_notice"; level: "info" | "warning" | "error"; text: string }
  | { type: "ui_command_started" }
  | { type: "ui_command_result"; input: string; result: CommandResult }
  | { type: "ui_servers"; servers: ServerSummary[] }
  | { type: "ui_kb"; kb: KbSummary }
  | { type: "ui_model"; name: string | undefined; problem: string | undefined }
  /** Ctrl+O: open the latest panel in the inspector, or close the inspector. */
  | { type: "ui_inspector_toggle" }
  | { type: "ui_inspector_move"; delta: number }
  /** Prints the inspected entry in full into the transcript, and closes the inspector. */
  | { type: "ui_inspector_print" }
  | { type: "ui_inspector_close" }
  /** Prints a live call (e.g. one awaiting approval with long arguments) in full into the transcript. */
  | { type: "ui_print_live_call"; callId: string }
  | { type: "ui_exit_armed"; armed: boolean };

export type TranscriptAction = AgentEvent | UiAction;

export function initialTranscriptState(): TranscriptState {
  return {
    items: [],
    nextItemId: 1,
    nextCallNumber: 1,
    turn: undefined,
    approvalCallId: undefined,
    finishedCalls: {},
    knowledge: {},
    expandables: [],
    inspector: undefined,
    servers: [],
    model: { name: undefined, problem: undefined },
    kb: { state: "off" },
    tokens: 0,
    exitArmed: false,
    commandRunning: false,
  };
}

/** Pure: the transcript after one engine event or UI action. `items` only ever grows (it feeds <Static>). */
export function transcriptReducer(state: TranscriptState, action: TranscriptAction): TranscriptState {
  switch (action.type) {
    case "turn_start":
      return append(
        {
          ...state,
          turn: { number: action.turn, input: action.input, text: "", replyStarted: false, calls: [] },
        },
        { kind: "user", text: sanitizeForTerminal(action.input) },
      );
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
        knowledge: { ...next.knowledge, [id]: knowledge },
        expandables: [...next.expandables, { kind: "knowledge", itemId: id }],
      };
    }
    case "model_request":
    case "model_retry":
      return state;
    case "text_delta":
      return withTurn(state, (turn) => flushSafeText(state, { ...turn, text: turn.text + action.delta }));
    case "model_step_end":
      return {
        ...withTurn(state, (turn) => flushAllText(state, turn)),
        tokens: state.tokens + (action.usage?.totalTokens ?? 0),
      };
    case "tool_call_proposed":
      return withTurn(state, (turn) => [
        { ...state, nextCallNumber: state.nextCallNumber + 1 },
        { ...turn, calls: [...turn.calls, callView(action.call, state.nextCallNumber)] },
      ]);
    case "approval_requested":
      return {
        ...updateCall(state, action.callId, {
          state: "awaiting_approval",
          askReason: sanitizeForTerminal(action.reason),
        }),
        approvalCallId: action.callId,
      };
    case "approval_decided": {
      const decision = {
        approved: action.approved,
        by: action.by,
        reason: sanitizeForTerminal(action.reason),
      };
      const next = updateCall(state, action.callId, {
        decision,
        state: action.approved ? "approved" : "denied",
      });
      return {
        ...next,
        approvalCallId: state.approvalCallId === action.callId ? undefined : state.approvalCallId,
      };
    }
    case "tool_started":
      return updateCall(state, action.callId, { state: "running" });
    case "tool_progress":
      return updateCall(state, action.callId, {
        progress: {
          progress: action.progress,
          total: action.total,
          message: action.message === undefined ? undefined : sanitizeForTerminal(action.message),
        },
      });
    case "tool_result":
      return finishCall(state, action);
    case "warning":
      return append(state, { kind: "notice", level: "warning", text: sanitizeForTerminal(action.message) });
    case "error":
      return append(state, { kind: "notice", level: "error", text: sanitizeForTerminal(action.message) });
    case "turn_end":
      return endTurn(state, action);
    case "ui_notice":
      return append(state, { kind: "notice", level: action.level, text: sanitizeForTerminal(action.text) });
    case "ui_command_started":
      return { ...state, commandRunning: true };
    case "ui_command_result":
      return {
        ...append(state, { kind: "command", input: action.input, result: sanitizeResult(action.result) }),
        commandRunning: false,
      };
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
    case "ui_inspector_toggle":
      if (state.inspector !== undefined || state.expandables.length === 0)
        return { ...state, inspector: undefined };
      return { ...state, inspector: state.expandables.length - 1 };
    case "ui_inspector_move": {
      if (state.inspector === undefined) return state;
      const index = Math.min(Math.max(state.inspector + action.delta, 0), state.expandables.length - 1);
      return { ...state, inspector: index };
    }
    case "ui_inspector_print": {
      const ref = state.inspector === undefined ? undefined : state.expandables[state.inspector];
      if (!ref) return state;
      const call = ref.kind === "tool" ? state.finishedCalls[ref.callId] : undefined;
      const knowledge = ref.kind === "knowledge" ? state.knowledge[ref.itemId] : undefined;
      return { ...append(state, { kind: "detail", call, knowledge }), inspector: undefined };
    }
    case "ui_inspector_close":
      return { ...state, inspector: undefined };
    case "ui_print_live_call": {
      const call = state.turn?.calls.find((candidate) => candidate.callId === action.callId);
      return call ? append(state, { kind: "detail", call, knowledge: undefined }) : state;
    }
    case "ui_exit_armed":
      return { ...state, exitArmed: action.armed };
  }
}

type NewItem = TranscriptItem extends infer Item
  ? Item extends TranscriptItem
    ? Omit<Item, "id">
    : never
  : never;

function append(state: TranscriptState, ...items: NewItem[]): TranscriptState {
  let id = state.nextItemId;
  const added = items.map((item) => ({ ...item, id: id++ }));
  return { ...state, items: [...state.items, ...added], nextItemId: id };
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
  return [
    append(state, { kind: "assistant", text: sanitizeForTerminal(done), first: !turn.replyStarted }),
    { ...turn, text: rest, replyStarted: true },
  ];
}

function flushAllText(state: TranscriptState, turn: LiveTurn): [TranscriptState, LiveTurn] {
  const text = turn.text.replace(/\s+$/, "");
  if (!text) return [state, { ...turn, text: "" }];
  return [
    append(state, { kind: "assistant", text: sanitizeForTerminal(text), first: !turn.replyStarted }),
    { ...turn, text: "", replyStarted: true },
  ];
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
    decision: undefined,
    result: undefined,
  };
}

function updateCall(state: TranscriptState, callId: string, change: Partial<ToolCallView>): TranscriptState {
  return withTurn(state, (turn) => [
    state,
    { ...turn, calls: turn.calls.map((call) => (call.callId === callId ? { ...call, ...change } : call)) },
  ]);
}

function finishCall(
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
      forModel: sanitizeForTerminal(result.forModel),
      truncated: result.truncated,
      redactions: result.redactions.map((rule) => sanitizeForTerminal(rule)),
      durationMs: result.durationMs,
      failure: result.failure,
    },
  };
  // Text streamed before the calls belongs above their panels.
  const [flushed, turn] = flushAllText(state, state.turn);
  const next = append(flushed, { kind: "tool", call: finished });
  return {
    ...next,
    turn: { ...turn, calls: turn.calls.filter((candidate) => candidate.callId !== result.callId) },
    finishedCalls: { ...next.finishedCalls, [call.callId]: finished },
    expandables: [...next.expandables, { kind: "tool", callId: call.callId }],
    approvalCallId: state.approvalCallId === call.callId ? undefined : state.approvalCallId,
  };
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

function endTurn(state: TranscriptState, end: Extract<AgentEvent, { type: "turn_end" }>): TranscriptState {
  if (!state.turn) return state;
  const interrupted = end.reason === "aborted";
  const [flushed, turn] = flushAllText(state, state.turn);
  let next = flushed;
  // Calls that never reported a result were cut off with the turn.
  for (const call of turn.calls) next = append(next, { kind: "tool", call: { ...call, state: "cancelled" } });
  if (interrupted) {
    next = append(next, {
      kind: "notice",
      level: "warning",
      text: "Interrupted: the answer above is partial, and calls still running were cancelled.",
    });
  }
  return { ...next, turn: undefined, approvalCallId: undefined };
}

function sanitizeResult(result: CommandResult): CommandResult {
  switch (result.kind) {
    case "text":
      return { ...result, text: sanitizeForTerminal(result.text) };
    case "error":
      return { ...result, message: sanitizeForTerminal(result.message) };
    case "table":
      return {
        ...result,
        title: sanitizeForTerminal(result.title),
        rows: result.rows.map((row) => row.map((cell) => sanitizeForTerminal(cell))),
        ...(result.note === undefined ? {} : { note: sanitizeForTerminal(result.note) }),
      };
  }
}
