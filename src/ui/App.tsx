import { Box, Static, Text, useInput, useWindowSize, type Key } from "ink";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { ApprovalPanel } from "./ApprovalPanel.js";
import { complete } from "./completion.js";
import { Elapsed } from "./Elapsed.js";
import { headLines, prettyArguments } from "./format.js";
import {
  backspace,
  deleteForward,
  deleteToLineStart,
  deleteWordBack,
  emptyEditor,
  insertText,
  lineEnd,
  lineStart,
  moveCursor,
  moveLine,
  onFirstLine,
  onLastLine,
  pressEnter,
  type EditorState,
} from "./input-editor.js";
import { browse, emptyHistory, remember, type HistoryState } from "./input-history.js";
import { KnowledgeBlock } from "./KnowledgeBlock.js";
import { Markdown } from "./Markdown.js";
import { PromptInput } from "./PromptInput.js";
import { StatusLine } from "./StatusLine.js";
import { ToolPanel } from "./ToolPanel.js";
import type { TranscriptAction } from "./transcript-reducer.js";
import { TranscriptItemView } from "./TranscriptItemView.js";
import type { ToolCallView, TranscriptState } from "./transcript-types.js";
import type { ApprovalKey } from "./tui-controller.js";

/** What the app needs from the engine side; the real one is TuiController, tests pass their own. */
export interface AppController {
  submit(text: string): void;
  cancel(): boolean;
  answerApproval(key: ApprovalKey): void;
  completions(): string[];
}

export interface TranscriptSource {
  getState: () => TranscriptState;
  subscribe: (listener: () => void) => () => void;
  dispatch: (action: TranscriptAction) => void;
}

const EXIT_CONFIRM_MS = 2000;

export function App({
  store,
  controller,
  onExit,
}: {
  store: TranscriptSource;
  controller: AppController;
  onExit: () => void;
}): ReactNode {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { columns, rows } = useWindowSize();
  // Keys can arrive faster than React re-renders, so handlers read the latest prompt state from a ref.
  const local = useRef<PromptState>(INITIAL_PROMPT);
  const [prompt, setPrompt] = useState<PromptState>(INITIAL_PROMPT);
  const printedArgs = useRef<string | undefined>(undefined);
  const { dispatch } = store;

  const busy = state.turn !== undefined;
  const approvalCall = liveApprovalCall(state);
  const inspected = state.inspector === undefined ? undefined : state.expandables[state.inspector];
  const bodyLines = Math.max(4, rows - 14);

  useEffect(() => {
    if (!state.exitArmed) return;
    const timer = setTimeout(() => dispatch({ type: "ui_exit_armed", armed: false }), EXIT_CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [state.exitArmed, dispatch]);

  // Arguments too long for the panel are printed in full above it, so nothing asked about is hidden.
  useEffect(() => {
    if (!approvalCall || printedArgs.current === approvalCall.callId) return;
    if (headLines(prettyArguments(approvalCall.args, approvalCall.rawArguments), bodyLines).hidden === 0)
      return;
    printedArgs.current = approvalCall.callId;
    dispatch({ type: "ui_print_live_call", callId: approvalCall.callId });
  }, [approvalCall, bodyLines, dispatch]);

  const onKey = useCallback(
    (input: string, key: Key): void => {
      const update = (change: Partial<PromptState>): void => {
        local.current = { ...local.current, ...change };
        setPrompt(local.current);
      };
      const current = store.getState();
      if (liveApprovalCall(current)) {
        handleApprovalKey(input, key, local.current.reason, controller, (reason) => update({ reason }));
        return;
      }
      if (key.ctrl && input === "o") {
        dispatch({ type: "ui_inspector_toggle" });
        return;
      }
      if (current.inspector !== undefined) {
        if (key.upArrow || key.downArrow) {
          dispatch({ type: "ui_inspector_move", delta: key.upArrow ? -1 : 1 });
          return;
        }
        if (key.return) {
          dispatch({ type: "ui_inspector_print" });
          return;
        }
        if (key.escape) {
          dispatch({ type: "ui_inspector_close" });
          return;
        }
      }
      const { editor } = local.current;
      if (key.escape) {
        controller.cancel();
        return;
      }
      if (key.ctrl && input === "c") {
        if (controller.cancel()) return;
        if (editor.text) update({ editor: emptyEditor });
        else if (current.exitArmed) onExit();
        else dispatch({ type: "ui_exit_armed", armed: true });
        return;
      }
      if (key.ctrl && input === "d") {
        if (editor.text === "") onExit();
        else update({ editor: deleteForward(editor) });
        return;
      }
      const submit = (text: string): void => {
        if (!text.trim()) return;
        update({ history: remember(local.current.history, text), editor: emptyEditor, candidates: [] });
        controller.submit(text);
      };
      handleEditorKey(input, key, local.current, controller, update, submit);
    },
    [store, controller, dispatch, onExit],
  );
  useInput(onKey);

  const { editor, reason, candidates } = prompt;
  return (
    <Box flexDirection="column" width={columns}>
      <Static items={state.items}>
        {(item) => (
          <Box key={item.id} width={columns} paddingRight={1}>
            <TranscriptItemView item={item} width={columns - 1} />
          </Box>
        )}
      </Static>
      <LiveTurnView state={state} maxLines={bodyLines} />
      {approvalCall ? <ApprovalPanel call={approvalCall} reason={reason} maxArgLines={bodyLines} /> : null}
      {inspected && !approvalCall ? <Inspector state={state} maxLines={bodyLines} /> : null}
      <PromptInput editor={editor} dimmed={approvalCall !== undefined} />
      {candidates.length > 0 ? <Text wrap="truncate-end">{candidates.join("  ")}</Text> : null}
      <StatusLine
        state={state}
        hints={hintsFor({
          state,
          busy,
          approval: approvalCall !== undefined,
          reason,
          inspecting: inspected !== undefined,
        })}
      />
    </Box>
  );
}

interface PromptState {
  editor: EditorState;
  history: HistoryState;
  /** Set while the person types a reason for a denial. */
  reason: string | undefined;
  /** Tab matches to show when there was more than one. */
  candidates: string[];
}

const INITIAL_PROMPT: PromptState = {
  editor: emptyEditor,
  history: emptyHistory,
  reason: undefined,
  candidates: [],
};

function liveApprovalCall(state: TranscriptState): ToolCallView | undefined {
  return state.turn?.calls.find((call) => call.callId === state.approvalCallId);
}

/** Only these exact keys decide; Enter, other typing or pasted text never approve. */
function handleApprovalKey(
  input: string,
  key: Key,
  reason: string | undefined,
  controller: AppController,
  setReason: (reason: string | undefined) => void,
): void {
  const cancel = key.escape || (key.ctrl && input === "c");
  if (reason !== undefined) {
    if (cancel) {
      controller.answerApproval({ kind: "deny" });
      setReason(undefined);
    } else if (key.return) {
      controller.answerApproval({ kind: "deny", reason });
      setReason(undefined);
    } else if (key.backspace || key.delete) setReason(reason.slice(0, -1));
    else if (!key.ctrl && !key.meta && input)
      setReason(reason + sanitizeForTerminal(input).replace(/[\r\n]/g, " "));
    return;
  }
  if (cancel) controller.answerApproval({ kind: "deny" });
  else if (key.ctrl || key.meta) return;
  else if (input === "y") controller.answerApproval({ kind: "once" });
  else if (input === "a") controller.answerApproval({ kind: "always" });
  else if (input === "n") controller.answerApproval({ kind: "deny" });
  else if (input === "d") setReason("");
}

function handleEditorKey(
  input: string,
  key: Key,
  { editor, history }: PromptState,
  controller: AppController,
  update: (change: Partial<PromptState>) => void,
  submit: (text: string) => void,
): void {
  const setEditor = (next: EditorState): void => update({ editor: next });
  if (key.return) {
    // Alt+Enter inserts a line break; so does Enter after a trailing backslash.
    if (key.meta && !key.escape) {
      setEditor(insertText(editor, "\n"));
      return;
    }
    const entered = pressEnter(editor);
    if (entered.submit === undefined) setEditor(entered.state);
    else submit(entered.submit);
    return;
  }
  if (key.tab) {
    const completion = complete(editor, controller.completions());
    update({ editor: completion.state, candidates: completion.candidates });
    return;
  }
  if (key.upArrow || key.downArrow) {
    const direction = key.upArrow ? -1 : 1;
    const atEdge = direction < 0 ? onFirstLine(editor) : onLastLine(editor);
    if (!atEdge) {
      setEditor(moveLine(editor, direction));
      return;
    }
    const browsed = browse(history, direction, editor.text);
    if (browsed)
      update({ history: browsed.history, editor: { text: browsed.text, cursor: browsed.text.length } });
    return;
  }
  if (key.leftArrow) setEditor(moveCursor(editor, -1));
  else if (key.rightArrow) setEditor(moveCursor(editor, 1));
  else if (key.home || (key.ctrl && input === "a")) setEditor(lineStart(editor));
  else if (key.end || (key.ctrl && input === "e")) setEditor(lineEnd(editor));
  else if (key.backspace) setEditor(backspace(editor));
  else if (key.delete) setEditor(deleteForward(editor));
  else if (key.ctrl && input === "w") setEditor(deleteWordBack(editor));
  else if (key.ctrl && input === "u") setEditor(deleteToLineStart(editor));
  else if (!key.ctrl && !key.meta && /^[^\r\n]+\r$/.test(input)) {
    // One line and a CR in one read: typed faster than the terminal reads (or sent by a script).
    const typed = pressEnter(insertText(editor, sanitizeForTerminal(input.slice(0, -1))));
    if (typed.submit === undefined) setEditor(typed.state);
    else submit(typed.submit);
  } else if (!key.ctrl && !key.meta && input) {
    update({ editor: insertText(editor, sanitizeForTerminal(input)), candidates: [] });
  }
}

function LiveTurnView({ state, maxLines }: { state: TranscriptState; maxLines: number }): ReactNode {
  const turn = state.turn;
  if (!turn) return state.commandRunning ? <Text>running the command… </Text> : null;
  const lines = turn.text.split("\n");
  const shown = lines.length > maxLines ? lines.slice(-maxLines).join("\n") : turn.text;
  const waiting = turn.text === "" && turn.calls.every((call) => call.state !== "running");
  return (
    <Box flexDirection="column" marginTop={turn.replyStarted ? 0 : 1}>
      {shown ? <Markdown text={sanitizeForTerminal(shown)} /> : null}
      {turn.calls
        .filter((call) => call.callId !== state.approvalCallId)
        .map((call) => (
          <ToolPanel key={call.callId} call={call} expanded={false} />
        ))}
      {waiting && state.approvalCallId === undefined ? (
        <Text>
          thinking <Elapsed />
        </Text>
      ) : null}
    </Box>
  );
}

function Inspector({ state, maxLines }: { state: TranscriptState; maxLines: number }): ReactNode {
  const ref = state.inspector === undefined ? undefined : state.expandables[state.inspector];
  if (!ref) return null;
  const position = `${(state.inspector ?? 0) + 1}/${state.expandables.length}`;
  const call = ref.kind === "tool" ? state.finishedCalls[ref.callId] : undefined;
  const knowledge = ref.kind === "knowledge" ? state.knowledge[ref.itemId] : undefined;
  return (
    <Box flexDirection="column" borderStyle="single" paddingX={1}>
      <Text bold>Inspecting {position}</Text>
      {call ? <ToolPanel call={call} expanded selected maxResultLines={Math.max(3, maxLines - 8)} /> : null}
      {knowledge ? <KnowledgeBlock knowledge={knowledge} expanded selected /> : null}
    </Box>
  );
}

function hintsFor(mode: {
  state: TranscriptState;
  busy: boolean;
  approval: boolean;
  reason: string | undefined;
  inspecting: boolean;
}): string {
  if (mode.approval) {
    return mode.reason === undefined
      ? "y approve once · a always allow · n deny · d deny with a reason · Esc deny"
      : "type the reason · Enter deny with it · Esc deny without it";
  }
  if (mode.inspecting) return "↑/↓ select · Enter print in full · Esc or Ctrl+O close";
  if (mode.state.exitArmed) return "Press Ctrl+C again to exit";
  if (mode.busy)
    return "Esc or Ctrl+C cancel the turn · Ctrl+O inspect the latest panel · /commands still work";
  return "Enter send · \\+Enter or Alt+Enter new line · ↑/↓ history · Tab complete · Ctrl+O panels · /help · Ctrl+D exit";
}
