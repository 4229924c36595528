import {
  Box,
  Static,
  useApp,
  useInput,
  usePaste,
  useStdout,
  useWindowSize,
  type DOMElement,
  type Key,
} from "ink";
import type { EditResult, Suspend } from "../../common/external-editor.js";
import { errorMessage } from "../../core/errors.js";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { activePanel } from "../panels/active-panel.js";
import { INITIAL_APPROVAL_FOCUS } from "../keys/approval-choices.js";
import { ApprovalPanel, WaitingCalls } from "../panels/ApprovalPanel.js";
import { headLines } from "../parts/format.js";
import { FULL_SCREEN_MARGIN, useApprovalFit } from "../panels/use-approval-fit.js";
import { promptLayout } from "../prompt/prompt-window.js";
import { useMeasuredRows } from "../parts/use-measured-rows.js";
import { keysFromInk, pasteKey, type KeyEvent } from "../keys/key-event.js";
import { keyHints } from "../panels/key-hints.js";
import { keyAction, type KeyAction, type ScrollBy } from "../keys/keymap.js";
import { Inspector, inspectorSize } from "../transcript/Inspector.js";
import { inspectorViewport } from "../transcript/inspector-view.js";
import { liveCalls } from "../transcript/live-calls.js";
import { LiveTurnView } from "../transcript/LiveTurnView.js";
import {
  keyMode,
  type ModeContext,
  type PromptAction,
  type PromptEffect,
  type PromptState,
} from "../prompt/prompt-reducer.js";
import { PromptStore } from "../prompt/prompt-store.js";
import { PromptInput } from "../prompt/PromptInput.js";
import { CompletionMenuView } from "../prompt/CompletionMenuView.js";
import { menuWord, type MenuItem } from "../prompt/completion-menu.js";
import { QueuedMessages } from "../prompt/QueuedMessages.js";
import { QuestionPanel, WaitingAsked } from "../panels/QuestionPanel.js";
import type { QuestionAnswer } from "../panels/question-reducer.js";
import { samplingLines } from "../transcript/sampling-lines.js";
import { StatusLine } from "./StatusLine.js";
import type { TranscriptAction } from "../transcript/transcript-reducer.js";
import { TranscriptItemView } from "../transcript/TranscriptItemView.js";
import type { TranscriptState } from "../transcript/transcript-types.js";
import type { ApprovalKey } from "../panels/open-questions.js";

/** What the app needs from the engine side; the real one is TuiController, tests pass their own. */
export interface AppController {
  /** The escape sequences of images to draw inline as tools return them (absent: none drawn). */
  onImageSequences?(draw: (sequence: string) => void): () => void;
  /**
   * Sends a message, or queues it while a turn runs; slash commands run at once. `onUnsent` is
   * told when the message could not be sent after all (a mention could not be read).
   */
  submit(text: string, onUnsent?: (text: string) => void): void;
  /** Cancels the running turn (queued messages stay, held); false when none was running. */
  cancel(): boolean;
  /** Sends the next queued message now. */
  sendQueued(): void;
  /** Takes the last queued message back, for editing. */
  takeLastQueued(): string | undefined;
  /** The person's answer to the approval panel of `callId`. */
  answerApproval(callId: string, key: ApprovalKey): void;
  /** Answers the server question `id` (a sampling request, a form, a web page to open). */
  answerQuestion(id: number, answer: QuestionAnswer): void;
  /** Words Tab may complete to, for the text before the cursor; a promise while a server is asked. */
  completions(before: string): string[] | Promise<string[]>;
  /** Ctrl+L: erase the screen and draw the live area again (absent: nothing to do). */
  redraw?(): void;
  /** What a word Tab or the menu offers is (a command's description, a folder), for the menu. */
  describe?(word: string): string | undefined;
  /** Edits `text` in $VISUAL / $EDITOR, `suspend` handing the terminal over meanwhile (absent: no editor). */
  editText?(text: string, suspend: Suspend): Promise<EditResult>;
}

export interface TranscriptSource {
  getState: () => TranscriptState;
  subscribe: (listener: () => void) => () => void;
  dispatch: (action: TranscriptAction) => void;
}

const EXIT_CONFIRM_MS = 2000;
const CTRL_D: KeyEvent = { kind: "key", name: "d", ctrl: true, meta: false, shift: false };
/** The status line and the key hints under it. */
const STATUS_ROWS = 2;
/** The inspector's rows besides its scrolled body: border, title, the call's header, footer. */
const INSPECTOR_FRAME_ROWS = 6;
/** The completion menu's rows at most: eight choices and a note above and below them. */
const MENU_MAX_ROWS = 10;

/** Milliseconds on a clock that only moves forward; the approval guard measures with it. */
const monotonic = (): number => performance.now();

export function App({
  store,
  controller,
  onExit,
  clock = monotonic,
  history = [],
}: {
  store: TranscriptSource;
  controller: AppController;
  onExit: () => void;
  /** Injected so tests can type at chosen intervals without waiting. */
  clock?: () => number;
  /** What was sent in this project before (and in a resumed session), oldest first, for ↑. */
  history?: readonly string[];
}): ReactNode {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const [promptStore] = useState(() => new PromptStore(history));
  const prompt = useSyncExternalStore(promptStore.subscribe, promptStore.getState);
  const { columns, rows } = useWindowSize();
  const printedArgs = useRef<string | undefined>(undefined);
  const printedQuestion = useRef<number | undefined>(undefined);
  const { dispatch } = store;
  const { write } = useStdout();
  const { suspendTerminal } = useApp();
  // One editor at a time: a second Ctrl+G in the same read must not suspend the terminal twice.
  const editing = useRef(false);
  // While an editor has the terminal, Ink drops every frame, the <Static> items in it too, and
  // counts those as printed: items finished meanwhile (an answer, a tool's panel) are held back
  // (only the first `heldFrom` are given to <Static>) and printed once the terminal is back.
  const [heldFrom, setHeldFrom] = useState<number | undefined>(undefined);
  const printedItems = useRef(0);
  // Only what was printed before the editor took the terminal, until it is back (see heldFrom).
  const items = heldFrom === undefined ? state.items : state.items.slice(0, heldFrom);
  // What <Static> has printed, as of the last frame Ink wrote (read when the editor opens).
  useEffect(() => {
    printedItems.current = items.length;
  });
  // Images go out through Ink's own write, which draws them above the live frame and redraws it.
  useEffect(() => controller.onImageSequences?.(write), [controller, write]);

  const busy = state.turn !== undefined;
  const calls = liveCalls(state);
  // One panel at a time, in the order they came: an approval, or a server's question.
  const panel = activePanel(state);
  const askingCall = panel?.kind === "approval" ? calls.asking : undefined;
  const approval = prompt.approval?.callId === askingCall?.callId ? prompt.approval : undefined;
  const question = panel?.kind === "question" ? panel.question : undefined;
  const questionFocus = question && prompt.question?.id === question.id ? prompt.question : undefined;
  const inspecting = state.inspector !== undefined;
  const bodyLines = Math.max(4, rows - 14);
  const questionLines = Math.max(4, bodyLines - 6);
  // The draft gets at most half the window, so the live area stays shorter than it.
  const promptRows = Math.max(3, Math.floor(rows / 2) - 2);
  const mode = keyMode(prompt, modeContext(state));
  // The live turn above an approval panel is measured: the panel gets the rows it leaves.
  const liveTurn = useRef<DOMElement>(null);
  const liveTurnRows = useMeasuredRows(liveTurn);
  const asked = askingCall || questionFocus ? state.asking.slice(1) : [];
  const queuedRows = state.queue.messages.length > 0 ? state.queue.messages.length + 1 : 0;
  const promptHeight = promptLayout(prompt.editor, columns, promptRows).height;
  const approvalView = useApprovalFit(askingCall, calls.position, columns, {
    windowRows: rows,
    above: liveTurnRows,
    waiting: (askingCall ? calls.waiting.length : 0) + asked.length,
    queued: queuedRows,
    prompt: promptHeight,
    promptEmpty: prompt.editor.text === "",
    status: STATUS_ROWS,
  });
  // What is drawn under the streaming text, at most: the text takes only the rest of the window.
  const inspectorRows = inspecting ? inspectorSize(columns, bodyLines).height + INSPECTOR_FRAME_ROWS : 0;
  const menuRows = prompt.menu ? MENU_MAX_ROWS : 0;
  const liveTurnMaxRows =
    rows - FULL_SCREEN_MARGIN - promptHeight - STATUS_ROWS - queuedRows - menuRows - inspectorRows;
  const fit = approvalView?.fit;
  const argsClipped = approvalView !== undefined && approvalView.fit.argRows < approvalView.rows.args.length;

  useEffect(() => {
    if (!state.exitArmed) return;
    const timer = setTimeout(() => dispatch({ type: "ui_exit_armed", armed: false }), EXIT_CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [state.exitArmed, dispatch]);
  useEffect(() => {
    if (!state.leaveArmed) return;
    const timer = setTimeout(() => dispatch({ type: "ui_leave_armed", armed: false }), EXIT_CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [state.leaveArmed, dispatch]);

  // The guard runs from the first moment the panel is known: drawn here, or met by a key that came first.
  const approvalCallId = askingCall?.callId;
  useEffect(() => {
    promptStore.dispatch({ type: "approval_sync", callId: approvalCallId, at: clock() });
  }, [approvalCallId, promptStore, clock]);

  useEffect(() => {
    promptStore.dispatch({ type: "question_sync", question, at: clock() });
  }, [question, promptStore, clock]);

  // A sampling request too long for its panel is printed in full above it, like long arguments.
  useEffect(() => {
    if (question?.kind !== "sampling" || printedQuestion.current === question.id) return;
    if (headLines(samplingLines(question.question).join("\n"), questionLines).hidden === 0) return;
    printedQuestion.current = question.id;
    dispatch({ type: "ui_print_question", id: question.id });
  }, [question, questionLines, dispatch]);

  // Arguments the panel cannot show whole in this window are printed in full above it, once, so
  // nothing asked about is out of reach: the panel says how many rows it left out, and where.
  useEffect(() => {
    if (!askingCall || !argsClipped || printedArgs.current === askingCall.callId) return;
    printedArgs.current = askingCall.callId;
    dispatch({ type: "ui_print_live_call", callId: askingCall.callId });
  }, [askingCall, argsClipped, dispatch]);

  // A message that could not be sent comes back into the prompt, unless the person typed another.
  const restore = useCallback(
    (text: string): void => {
      if (promptStore.getState().editor.text === "")
        promptStore.dispatch({ type: "recall", text, at: clock() });
    },
    [promptStore, clock],
  );

  const runEffect = useCallback(
    (effect: PromptEffect): void => {
      switch (effect.type) {
        case "submit":
          controller.submit(effect.text, restore);
          return;
        case "answer":
          controller.answerApproval(effect.callId, effect.answer);
          return;
        case "question_answer":
          controller.answerQuestion(effect.id, effect.answer);
          return;
        case "cancel_turn":
          controller.cancel();
          return;
        case "send_queued":
          controller.sendQueued();
          return;
        case "take_queued": {
          const text = controller.takeLastQueued();
          if (text !== undefined) promptStore.dispatch({ type: "recall", text, at: clock() });
          return;
        }
        case "inspector_scroll": {
          const size = inspectorSize(columns, bodyLines);
          const { maxOffset } = inspectorViewport(store.getState(), size.width, size.height);
          dispatch({ type: "ui_inspector_scroll", delta: scrollDelta(effect.by, size.height), maxOffset });
          return;
        }
        case "open_editor": {
          if (!controller.editText || editing.current) return;
          editing.current = true;
          let terminalBack = false;
          // The edit is put in place while the terminal is still handed over, so a key typed
          // the moment the editor closes goes after it instead of being replaced by it.
          const suspendApplying: Suspend = async (run) => {
            let result: EditResult = { ok: false, reason: "The editor did not run." };
            try {
              setHeldFrom(printedItems.current);
              await suspendTerminal(async () => {
                result = await run();
                if (result.ok) promptStore.dispatch({ type: "recall", text: result.text, at: clock() });
                else dispatch({ type: "ui_notice", level: "error", text: result.reason });
              });
            } finally {
              // The terminal is back: the next Ctrl+G opens the editor again, also while this
              // edit's temporary folder is still being removed (slow on a busy machine).
              terminalBack = true;
              setHeldFrom(undefined);
              editing.current = false;
              promptStore.dispatch({ type: "screen_back", at: clock() });
            }
            return result;
          };
          void controller
            .editText(effect.text, suspendApplying)
            // What editInExternalEditor did not foresee is said, never a crash that loses the draft.
            .catch((error: unknown) => {
              dispatch({
                type: "ui_notice",
                level: "error",
                text: `The editor failed: ${errorMessage(error)}`,
              });
            })
            .finally(() => {
              // An editor that never got the terminal (its file could not be made) releases it here.
              if (!terminalBack) editing.current = false;
            });
          return;
        }
        case "exit":
          onExit();
          return;
        case "redraw":
          controller.redraw?.();
          return;
        case "transcript":
          dispatch(effect.action);
          return;
      }
    },
    [controller, onExit, dispatch, promptStore, clock, columns, bodyLines, store, restore, suspendTerminal],
  );

  // Each key is mapped and reduced against the latest state, so keys that came in one read apply
  // in order. What a key hands on (a paste after Ctrl+X) is applied next, in the mode it leaves.
  const applyKey = useCallback(
    (key: KeyEvent): KeyEvent | undefined => {
      const at = clock();
      const current = store.getState();
      const shown = activePanel(current);
      const callId = shown?.kind === "approval" ? liveCalls(current).asking?.callId : undefined;
      promptStore.dispatch({ type: "approval_sync", callId, at });
      promptStore.dispatch({
        type: "question_sync",
        question: shown?.kind === "question" ? shown.question : undefined,
        at,
      });
      const action = keyAction(keyMode(promptStore.getState(), modeContext(current)), key);
      // A Ctrl+D that asked to confirm leaving a turn holds only until the next key, in any mode
      // (the inspector's too): typed on, a later Ctrl+D on the emptied prompt asks again.
      const leaving = action.type === "delete_or_exit" && promptStore.getState().editor.text === "";
      if (current.leaveArmed && !leaving) dispatch({ type: "ui_leave_armed", armed: false });
      const filled = withContext(action, at, controller, current, promptStore.getState());
      if (filled instanceof Promise) {
        // A server is asked for completions: they apply if the person has not typed on meanwhile.
        const before = textBeforeCursor(promptStore.getState());
        void filled.then((later) => {
          if (textBeforeCursor(promptStore.getState()) !== before) return;
          for (const effect of promptStore.dispatch(later)) runEffect(effect);
        });
        return undefined;
      }
      for (const effect of promptStore.dispatch(filled)) runEffect(effect);
      refreshMenu(promptStore, controller, at);
      return action.type === "chord_cancel" ? action.then : undefined;
    },
    [clock, store, promptStore, controller, runEffect, dispatch],
  );
  const onKey = useCallback(
    (key: KeyEvent): void => {
      for (let next: KeyEvent | undefined = key; next !== undefined;) next = applyKey(next);
    },
    [applyKey],
  );
  useInput(
    useCallback(
      (input: string, key: Key): void => {
        for (const event of keysFromInk(input, key)) onKey(event);
      },
      [onKey],
    ),
  );
  usePaste(useCallback((text: string): void => onKey(pasteKey(text)), [onKey]));

  const { editor, menu } = prompt;
  return (
    // No width here: Ink sizes the root to the window itself, at once on a resize, while `columns`
    // updates a render later; a frame drawn wider than a narrowed window would wrap and leave ghosts.
    <Box flexDirection="column">
      {/* A new epoch (after /clear) is a new <Static>: its items start over on the cleared screen. */}
      <Static key={state.epoch} items={items}>
        {(item) => (
          <Box key={item.id} width={columns} paddingRight={1}>
            <TranscriptItemView item={item} width={columns - 1} />
          </Box>
        )}
      </Static>
      <Box ref={liveTurn} flexDirection="column">
        <LiveTurnView state={state} calls={calls} maxRows={liveTurnMaxRows} width={columns - 1} />
      </Box>
      {askingCall && approvalView ? (
        <ApprovalPanel
          call={askingCall}
          width={columns}
          position={calls.position}
          focus={approval?.focus ?? INITIAL_APPROVAL_FOCUS}
          reason={approval?.reason}
          draft={editor.text !== ""}
          maxArgLines={bodyLines}
          layout={approvalView}
        />
      ) : null}
      {askingCall && fit?.waiting !== false ? (
        <WaitingCalls calls={calls.waiting} width={columns - 1} />
      ) : null}
      {question && questionFocus ? (
        <QuestionPanel
          question={question}
          focus={questionFocus}
          draft={editor.text !== ""}
          width={columns}
          maxLines={questionLines}
        />
      ) : null}
      {(askingCall || questionFocus) && fit?.waiting !== false ? (
        <WaitingAsked asked={asked} calls={state.turn?.calls ?? []} width={columns - 1} />
      ) : null}
      {inspecting && !askingCall && !questionFocus ? (
        <Inspector state={state} columns={columns} bodyLines={bodyLines} />
      ) : null}
      {fit?.queued !== false ? <QueuedMessages queue={state.queue} width={columns} /> : null}
      {fit?.prompt !== false ? (
        <PromptInput
          editor={editor}
          dimmed={askingCall !== undefined || questionFocus !== undefined}
          columns={columns}
          maxRows={promptRows}
        />
      ) : null}
      {/* Keys go to the approval panel while it is up, so a menu opened before it waits hidden. */}
      {menu && !askingCall ? <CompletionMenuView menu={menu} width={columns} /> : null}
      {fit?.status !== false ? (
        <StatusLine
          state={state}
          hints={keyHints(mode, {
            busy,
            draft: editor.text !== "",
            queue: state.queue,
            // Said only where the next Ctrl+D would exit: not under an approval or a question.
            leaving:
              state.leaveArmed &&
              exitWouldLose(state) &&
              editor.text === "" &&
              keyAction(mode, CTRL_D).type === "delete_or_exit",
            pasteOwed: state.pasteOwed,
          })}
          width={columns}
        />
      ) : null}
    </Box>
  );
}

function modeContext(state: TranscriptState): ModeContext {
  return {
    inspecting: state.inspector !== undefined,
    exitArmed: state.exitArmed,
    busy: state.turn !== undefined,
  };
}

function textBeforeCursor(prompt: PromptState): string {
  return prompt.editor.text.slice(0, prompt.editor.cursor);
}

/** Adds what only the controller and the transcript know to the actions that need it. */
function withContext(
  action: KeyAction,
  at: number,
  controller: AppController,
  state: TranscriptState,
  prompt: PromptState,
): PromptAction | Promise<PromptAction> {
  const queue = { queued: state.queue.messages.length, busy: state.turn !== undefined };
  // Ctrl+C clears a draft first, however many lines it has; only an empty prompt cancels the turn.
  if (action.type === "interrupt")
    return { type: "interrupt", turnCancelled: prompt.editor.text === "" && controller.cancel(), at };
  if (action.type === "complete") {
    const words = controller.completions(textBeforeCursor(prompt));
    if (Array.isArray(words)) return { type: "complete", items: menuItems(words, controller), at };
    return words.then((later) => ({ type: "complete", items: menuItems(later, controller), at }));
  }
  if (action.type === "send" || action.type === "vertical") return { ...action, queue, at };
  if (action.type === "delete_or_exit")
    return { ...action, busy: exitWouldLose(state), armed: state.leaveArmed, at };
  return { ...action, at };
}

/** A turn running or messages queued (held after a cancelled turn): an exit would lose them, so it is asked twice. */
function exitWouldLose(state: TranscriptState): boolean {
  return state.turn !== undefined || state.queue.messages.length > 0;
}

/** Words with what each is, for the menu. */
function menuItems(words: readonly string[], controller: AppController): MenuItem[] {
  return words.map((word) => ({ word, description: controller.describe?.(word) }));
}

/**
 * The menu follows the typing: while the word before the cursor is a command at the start or an
 * `@` mention, it lists what that word may become (only what is known at once: a server is asked
 * only when Tab is pressed); any other word closes it.
 */
function refreshMenu(promptStore: PromptStore, controller: AppController, at: number): void {
  const prompt = promptStore.getState();
  if (prompt.approval || prompt.question) return;
  const before = textBeforeCursor(prompt);
  const word = menuWord(before);
  // Any other word: a menu Tab opened follows the typing on its own (the reducer filters it).
  if (word === undefined) return;
  const words = controller.completions(before);
  const known = Array.isArray(words) ? words.filter((candidate) => candidate.startsWith(word)) : [];
  promptStore.dispatch({
    type: "menu_items",
    word,
    items: menuItems(known.slice(0, MENU_LIMIT), controller),
    at,
  });
}

/** The most words the menu is given; it shows a window of them. */
const MENU_LIMIT = 200;

/** Rows a scroll key moves: one, a page (keeping a row of context), or to either end. */
function scrollDelta(by: ScrollBy, page: number): number | "top" | "bottom" {
  switch (by) {
    case "line-up":
      return -1;
    case "line-down":
      return 1;
    case "page-up":
      return -Math.max(1, page - 1);
    case "page-down":
      return Math.max(1, page - 1);
    case "top":
      return "top";
    case "bottom":
      return "bottom";
  }
}
