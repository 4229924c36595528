import { APPROVAL_OPTIONS, INITIAL_APPROVAL_FOCUS, type ApprovalChoice } from "../keys/approval-choices.js";
import { APPROVAL_GUARD_MS, guardPassed } from "../keys/approval-guard.js";
import { complete } from "../keys/completion.js";
import {
  cleanItem,
  cycle,
  openMenu,
  wordBefore,
  type CompletionMenu,
  type MenuItem,
} from "./completion-menu.js";
import { EDITS } from "../keys/editor-edits.js";
import {
  deleteForward,
  emptyEditor,
  insertText,
  moveLine,
  onFirstLine,
  onLastLine,
  pressEnter,
  type EditorState,
} from "../keys/input-editor.js";
import { browse, emptyHistory, leaveHistory, remember, type HistoryState } from "../keys/input-history.js";
import type { KeyAction, KeyMode, ScrollBy } from "../keys/keymap.js";
import {
  editQuestionText,
  promptEditOf,
  questionKey,
  questionKeyMode,
  startQuestion,
  type QuestionAnswer,
  type QuestionFocus,
  type QuestionKey,
} from "../panels/question-reducer.js";
import type { UiAction } from "../transcript/transcript-reducer.js";
import { pastedText } from "../keys/pasted-text.js";
import { expandPastes, isLargePaste, placeholder, type Paste } from "./paste-placeholders.js";
import type { ServerQuestion } from "../transcript/transcript-types.js";
import type { ApprovalKey } from "../panels/open-questions.js";

/** The approval panel's own state; the call itself lives in the transcript. */
export interface ApprovalFocus {
  callId: string;
  /** When the panel was first known here: the guard runs from this moment. */
  shownAt: number;
  /** Index into APPROVAL_OPTIONS. */
  focus: number;
  /** When ↑/↓ or a digit last moved the focus: a yes is taken only a guard's time after. */
  movedAt?: number;
  /** The reason being written, once the person chose "deny and tell the model why". */
  reason: EditorState | undefined;
}

/** Everything the keys change, in one place: the prompt, its history, Tab matches and the approval panel. */
export interface PromptState {
  editor: EditorState;
  history: HistoryState;
  /**
   * Set by recalling a history entry: ↑/↓ keep walking history, even through a multi-line entry,
   * until the person edits it or moves the cursor sideways; then ↑/↓ walk its lines first.
   */
  browsing: boolean;
  /** The completion menu under the prompt, while a `/` or `@` word (or Tab) has choices. */
  menu: CompletionMenu | undefined;
  /** The word whose menu Esc closed: it stays closed until the word changes. */
  menuClosedAt: string | undefined;
  /** When the person last typed or edited the prompt; typing holds the approval guard up. */
  lastTypedAt: number | undefined;
  /** The approval panel on screen, if one is: its focus and guard (the call is the transcript's). */
  approval: ApprovalFocus | undefined;
  /** The server question on screen (never at the same time as an approval): its focus and guard. */
  question: QuestionFocus | undefined;
  /** Ctrl+X was pressed at the prompt: the next key may finish the chord (Ctrl+E opens the editor). */
  chord: "ctrl+x" | undefined;
  /** Large pastes standing in the draft as placeholders, put back in place when it is sent. */
  pastes: Paste[];
  nextPasteId: number;
}

export const initialPromptState: PromptState = {
  editor: emptyEditor,
  history: emptyHistory,
  browsing: false,
  menu: undefined,
  menuClosedAt: undefined,
  lastTypedAt: undefined,
  approval: undefined,
  question: undefined,
  chord: undefined,
  pastes: [],
  nextPasteId: 1,
};

/** The queue of messages waiting for the running turn, when a key arrives. */
export interface QueueContext {
  queued: number;
  busy: boolean;
}

/** A key's action with the time it arrived, and what only the controller knows filled in. */
export type PromptAction = (
  | Exclude<KeyAction, { type: "interrupt" | "complete" | "send" | "vertical" | "delete_or_exit" }>
  | { type: "interrupt"; turnCancelled: boolean }
  /**
   * Ctrl+D; `busy` while a turn runs, when an empty prompt asks for a second press to exit,
   * `armed` once it has (TranscriptState.leaveArmed).
   */
  | { type: "delete_or_exit"; busy: boolean; armed: boolean }
  | { type: "complete"; items: readonly MenuItem[] }
  /** What the word before the cursor may become, for the menu (none: the menu closes). */
  | { type: "menu_items"; word: string; items: readonly MenuItem[] }
  | { type: "send"; queue: QueueContext }
  | { type: "vertical"; direction: -1 | 1; queue: QueueContext }
  /** A queued message taken back into the prompt to be edited. */
  | { type: "recall"; text: string }
  /** The call the transcript is asking about now (undefined: none). */
  | { type: "approval_sync"; callId: string | undefined }
  /** The server question the transcript is asking now (undefined: none). */
  | { type: "question_sync"; question: ServerQuestion | undefined }
  /** The terminal is back from the external editor: what it shows now is seen for the first time. */
  | { type: "screen_back" }
) & { at: number };

/** What the app must do after a key; the reducer itself does no IO. */
export type PromptEffect =
  | { type: "submit"; text: string }
  | { type: "answer"; callId: string; answer: ApprovalKey }
  | { type: "question_answer"; id: number; answer: QuestionAnswer }
  | { type: "cancel_turn" }
  /** Enter on an empty prompt while messages wait and no turn runs: send the next one. */
  | { type: "send_queued" }
  /** ↑ on an empty prompt while messages wait: take the last one back to edit it. */
  | { type: "take_queued" }
  | { type: "inspector_scroll"; by: ScrollBy }
  | { type: "exit" }
  /** Open $VISUAL / $EDITOR on the prompt's text; what comes back replaces it (a `recall`). */
  | { type: "open_editor"; text: string }
  | { type: "redraw" }
  | { type: "transcript"; action: UiAction };

export interface PromptResult {
  state: PromptState;
  effects: PromptEffect[];
}

export interface ModeContext {
  inspecting: boolean;
  exitArmed: boolean;
  busy: boolean;
}

/** Which keymap applies now. */
export function keyMode(state: PromptState, context: ModeContext): KeyMode {
  if (state.approval) return state.approval.reason === undefined ? "approval" : "approval-reason";
  if (state.question) return questionKeyMode(state.question);
  if (state.chord) return "ctrl-x";
  if (context.inspecting) return "inspector";
  if (context.exitArmed && !context.busy && state.editor.text === "") return "exit-armed";
  if (state.menu) return "menu";
  return "prompt";
}

const PAGER_LETTERS: Readonly<Record<string, ScrollBy>> = {
  j: "line-down",
  k: "line-up",
  g: "top",
  G: "bottom",
};

const only = (state: PromptState, ...effects: PromptEffect[]): PromptResult => ({ state, effects });

/** Pure: the prompt after one key (or one approval change), and the effects it asks for. */
export function reducePrompt(state: PromptState, action: PromptAction): PromptResult {
  const { at } = action;
  switch (action.type) {
    case "approval_sync":
      return only(syncApproval(state, action.callId, at));
    case "question_sync":
      return only(syncQuestion(state, action.question, at));
    case "screen_back":
      return only(seenAgain(state, at));
    case "question_key":
    case "question_focus":
    case "question_confirm":
    case "question_dismiss":
    case "question_text_send":
    case "question_text_back":
    case "form_text":
    case "form_paste":
    case "form_edit":
    case "form_move":
    case "form_enter":
      return onQuestion(state, action, at);
    case "insert":
      return only(typed(state, at, (editor) => insertText(editor, pastedText(action.text))));
    case "paste": {
      const text = pastedText(action.text);
      if (typingIntoDraft(state) && isLargePaste(text)) return only(pasteAside(state, at, text));
      return only(typed(state, at, (editor) => insertText(editor, text)));
    }
    case "newline":
      return only(typed(state, at, (editor) => insertText(editor, "\n")));
    case "edit":
      return only(typed(state, at, EDITS[action.edit]));
    case "send":
      if (state.editor.text.trim() === "" && action.queue.queued > 0 && !action.queue.busy)
        return only({ ...state, editor: emptyEditor }, { type: "send_queued" });
      return send(state, at);
    case "recall":
      return only({
        ...state,
        editor: { text: action.text, cursor: action.text.length },
        browsing: false,
        menu: undefined,
      });
    case "complete": {
      // Words can come from servers (prompt names, URIs, their completions): typed in clean.
      const items = action.items.map(cleanItem);
      const completion = complete(
        state.editor,
        items.map((item) => item.word),
      );
      const menu = openMenu(wordBefore(completion.state), items, completion.candidates, undefined);
      return only({ ...typed(state, at, () => completion.state), menu, menuClosedAt: undefined });
    }
    case "menu_items": {
      if (action.word === state.menuClosedAt) return only({ ...state, menu: undefined });
      const items = action.items.map(cleanItem);
      const words = items.map((item) => item.word);
      return only({
        ...state,
        menu: openMenu(action.word, items, words, state.menu),
        menuClosedAt: undefined,
      });
    }
    case "menu_move":
      return only(
        withMenu(state, (menu) => ({
          ...menu,
          selected: cycle(menu.selected + action.direction, menu.items.length),
        })),
      );
    case "menu_close":
      return only({ ...state, menu: undefined, menuClosedAt: state.menu?.word });
    case "menu_take":
      return takeFromMenu(state, at, action.submit);
    case "redraw":
      return only(state, { type: "redraw" });
    case "vertical":
      if (action.direction < 0 && state.editor.text === "" && action.queue.queued > 0)
        return only(state, { type: "take_queued" });
      return only(vertical(state, action.direction));
    case "cancel_turn":
      return only(state, { type: "cancel_turn" });
    case "interrupt":
      if (action.turnCancelled) return only(state);
      if (state.editor.text !== "")
        return only({
          ...state,
          editor: emptyEditor,
          // Given up on: the next ↑ starts again from the newest entry.
          history: leaveHistory(state.history),
          browsing: false,
          menu: undefined,
        });
      return only(state, { type: "transcript", action: { type: "ui_exit_armed", armed: true } });
    case "delete_or_exit":
      // Not at once while a turn runs or messages wait queued (`busy`): it would stop the turn or
      // drop them, and a Ctrl+D meant for another window, or for a shell the person thought they
      // were in, would lose them unasked.
      if (state.editor.text === "" && action.busy && !action.armed)
        return only(state, { type: "transcript", action: { type: "ui_leave_armed", armed: true } });
      if (state.editor.text === "") return only(state, { type: "exit" });
      return only(typed(state, at, deleteForward));
    case "exit":
      return only(state, { type: "exit" });
    case "inspector_toggle":
      return only(state, { type: "transcript", action: { type: "ui_inspector_toggle" } });
    case "inspector_move":
      return only(state, { type: "transcript", action: { type: "ui_inspector_move", delta: action.delta } });
    case "inspector_print":
      return only(state, { type: "transcript", action: { type: "ui_inspector_print" } });
    case "inspector_close":
      return only(state, { type: "transcript", action: { type: "ui_inspector_close" } });
    case "inspector_scroll":
      return only(state, { type: "inspector_scroll", by: action.by });
    case "inspector_letter": {
      if (state.editor.text !== "")
        return only(typed(state, at, (editor) => insertText(editor, action.text)));
      if (action.text === "f")
        return only(state, { type: "transcript", action: { type: "ui_inspector_whole" } });
      return only(state, { type: "inspector_scroll", by: PAGER_LETTERS[action.text] ?? "line-down" });
    }
    case "approval_focus":
      return only(moveFocus(state, action.direction, at));
    case "approval_pick":
      if (!shortcutsLive(state, at))
        return only(typed(state, at, (editor) => insertText(editor, action.text)));
      return only(withApproval(state, (approval) => ({ ...approval, focus: action.index, movedAt: at })));
    case "approval_shortcut":
      if (!shortcutsLive(state, at))
        return only(typed(state, at, (editor) => insertText(editor, action.text)));
      return decide(state, action.choice);
    case "approval_confirm": {
      const approval = state.approval;
      // An Enter during the guard is part of the typing: it decides nothing and holds the guard up.
      if (!approval || !approvalGuardPassed(state, approval, at)) return only({ ...state, lastTypedAt: at });
      const choice = APPROVAL_OPTIONS[approval.focus]?.choice ?? "deny";
      // ↓ held down (its repeats) then Enter would land on the lasting yes at the bottom: a yes
      // reached by moving is taken once the focus has stood still for a guard's time.
      const settled = approval.movedAt === undefined || at - approval.movedAt >= APPROVAL_GUARD_MS;
      // An Enter too soon holds the wait up, as one during the guard does: a held Enter's repeats
      // never outlast it.
      if (!settled && choice !== "deny" && choice !== "reason")
        return only({ ...state, approval: { ...approval, movedAt: at } });
      return decide(state, choice);
    }
    case "approval_deny":
      return answer(state, { kind: "deny" });
    case "reason_send": {
      const reason = state.approval?.reason?.text.trim() ?? "";
      return answer(state, reason ? { kind: "deny", reason } : { kind: "deny" });
    }
    case "chord_start":
      return only({ ...state, chord: "ctrl+x" });
    case "chord_cancel":
      return only({ ...state, chord: undefined });
    case "open_editor":
      return only(
        { ...state, chord: undefined, menu: undefined },
        { type: "open_editor", text: expandPastes(state.editor.text, state.pastes) },
      );
    case "ignore":
      return only(state);
  }
}

/** A new call to ask about starts a fresh panel and its guard; the same call keeps its panel. */
function syncApproval(state: PromptState, callId: string | undefined, at: number): PromptState {
  if (callId === undefined) {
    return state.approval ? { ...state, approval: undefined } : state;
  }
  if (callId === state.approval?.callId) return state;
  return { ...state, approval: { callId, shownAt: at, focus: INITIAL_APPROVAL_FOCUS, reason: undefined } };
}

/**
 * A panel that came while the editor had the terminal was known here but never drawn: its guard
 * runs from when the person can first see it, so the first key after the editor decides nothing.
 */
function seenAgain(state: PromptState, at: number): PromptState {
  return {
    ...state,
    approval: state.approval && { ...state.approval, shownAt: at },
    question: state.question && { ...state.question, shownAt: at },
  };
}

/** A new question to ask starts a fresh panel and its guard; the same question keeps its panel. */
function syncQuestion(state: PromptState, question: ServerQuestion | undefined, at: number): PromptState {
  if (question === undefined) {
    return state.question ? { ...state, question: undefined } : state;
  }
  if (question.id === state.question?.id) return state;
  return { ...state, question: startQuestion(question, at) };
}

/** A key for the question panel: it may answer, change the panel, or be typing for the prompt. */
function onQuestion(state: PromptState, action: QuestionKey, at: number): PromptResult {
  const focus = state.question;
  if (!focus) return only(state);
  const step = questionKey(focus, action, {
    promptEmpty: state.editor.text === "",
    lastTypedAt: state.lastTypedAt,
    at,
  });
  switch (step.type) {
    case "prompt":
      return only(typed(state, at, promptEditOf(action)));
    case "hold":
      // A deciding key during the guard is part of the typing: it holds the guard up.
      return only({ ...state, lastTypedAt: at });
    case "update":
      return only({ ...state, question: step.focus });
    case "answer":
      return only(
        { ...state, question: undefined },
        { type: "question_answer", id: focus.id, answer: step.answer },
      );
  }
}

/**
 * An edit of the field in focus: the reason while one is written, a sampling panel's open text
 * field, else the prompt. Editing the prompt counts as typing (it holds the guards up) and ends
 * history browsing.
 */
function typed(state: PromptState, at: number, edit: (editor: EditorState) => EditorState): PromptState {
  if (state.question?.panel.kind === "sampling" && state.question.panel.text)
    return { ...state, question: editQuestionText(state.question, edit, at) };
  const reason = state.approval?.reason;
  if (state.approval && reason !== undefined) {
    const next = edit(reason);
    // The reason is one line of plain text for the model.
    const clean = { ...next, text: next.text.replace(/[\r\n\t]/g, " ") };
    return { ...state, approval: { ...state.approval, reason: clean } };
  }
  const editor = edit(state.editor);
  return {
    ...state,
    editor,
    browsing: false,
    lastTypedAt: at,
    menu: state.menu && refiltered(state.menu, editor),
  };
}

/**
 * Tab or Enter on the menu: the chosen word in place of the one typed. Enter on a command at the
 * start of the prompt also sends it, as a chosen command is meant to run.
 */
function takeFromMenu(state: PromptState, at: number, submit: boolean): PromptResult {
  const item = state.menu?.items[state.menu.selected];
  if (!item) return only({ ...state, menu: undefined });
  const completion = complete(state.editor, [item.word]);
  const taken = { ...typed(state, at, () => completion.state), menu: undefined, menuClosedAt: undefined };
  const isCommand = item.word.startsWith("/") && completion.state.text.trim() === item.word;
  if (!submit || !isCommand) return only(taken);
  return send({ ...taken, editor: { text: item.word, cursor: item.word.length } }, at);
}

/** The menu after an edit: what still matches the word now before the cursor, if anything does. */
function refiltered(menu: CompletionMenu, editor: EditorState): CompletionMenu | undefined {
  const word = wordBefore(editor);
  const matching = menu.items.map((item) => item.word).filter((candidate) => candidate.startsWith(word));
  return openMenu(word, menu.items, matching, menu);
}

function withMenu(state: PromptState, change: (menu: CompletionMenu) => CompletionMenu): PromptState {
  return state.menu ? { ...state, menu: change(state.menu) } : state;
}

/** Whether typing goes into the draft now, not into a panel's own editor (a sampling edit, a denial's reason). */
function typingIntoDraft(state: PromptState): boolean {
  const samplingText = state.question?.panel.kind === "sampling" && state.question.panel.text;
  return !samplingText && state.approval?.reason === undefined;
}

/** A large paste goes aside, and its placeholder into the draft where the cursor is. */
function pasteAside(state: PromptState, at: number, text: string): PromptState {
  const paste = { id: state.nextPasteId, text };
  return {
    ...typed(state, at, (editor) => insertText(editor, placeholder(paste))),
    pastes: [...state.pastes, paste],
    nextPasteId: paste.id + 1,
  };
}

function send(state: PromptState, at: number): PromptResult {
  const entered = pressEnter(state.editor);
  if (entered.submit === undefined) return only(typed(state, at, () => entered.state));
  if (!entered.submit.trim()) return only(state);
  const text = expandPastes(entered.submit, state.pastes);
  return only(
    {
      ...state,
      history: remember(state.history, text),
      editor: emptyEditor,
      browsing: false,
      menu: undefined,
      pastes: [],
    },
    { type: "submit", text },
  );
}

/** ↑/↓: lines of the text first, then history; straight through history while browsing it. */
function vertical(state: PromptState, direction: -1 | 1): PromptState {
  const { editor } = state;
  const atEdge = direction < 0 ? onFirstLine(editor) : onLastLine(editor);
  if (!state.browsing && !atEdge) return { ...state, editor: moveLine(editor, direction) };
  const browsed = browse(state.history, direction, editor.text);
  if (!browsed) return state;
  return {
    ...state,
    history: browsed.history,
    editor: { text: browsed.text, cursor: browsed.text.length },
    browsing: browsed.history.index !== undefined,
    menu: undefined,
  };
}

/** ↑/↓ on the list; during the guard they are stray keys of someone typing and move nothing. */
function moveFocus(state: PromptState, direction: -1 | 1, at: number): PromptState {
  const approval = state.approval;
  if (!approval) return state;
  if (!approvalGuardPassed(state, approval, at)) return { ...state, lastTypedAt: at };
  const focus = Math.min(Math.max(approval.focus + direction, 0), APPROVAL_OPTIONS.length - 1);
  return { ...state, approval: { ...approval, focus, movedAt: at } };
}

/**
 * Shortcut letters and digits decide only when the guard has passed and the prompt is empty: with
 * a draft in the prompt the person is writing, so `y`, `a`, `n`, `d` and digits go on the draft.
 */
function shortcutsLive(state: PromptState, at: number): boolean {
  const approval = state.approval;
  if (!approval || approval.reason !== undefined) return false;
  return state.editor.text === "" && approvalGuardPassed(state, approval, at);
}

function withApproval(state: PromptState, change: (approval: ApprovalFocus) => ApprovalFocus): PromptState {
  return state.approval ? { ...state, approval: change(state.approval) } : state;
}

function decide(state: PromptState, choice: ApprovalChoice): PromptResult {
  switch (choice) {
    case "once":
      return answer(state, { kind: "once" });
    case "always":
      return answer(state, { kind: "always" });
    case "project":
      return answer(state, { kind: "project" });
    case "deny":
      return answer(state, { kind: "deny" });
    case "reason":
      return only(withApproval(state, (approval) => ({ ...approval, reason: emptyEditor })));
  }
}

function answer(state: PromptState, key: ApprovalKey): PromptResult {
  const approval = state.approval;
  if (!approval) return only(state);
  return only({ ...state, approval: undefined }, { type: "answer", callId: approval.callId, answer: key });
}

/** Whether the approval guard is down for `approval` at `at`, counting the person's last key. */
function approvalGuardPassed(state: PromptState, approval: ApprovalFocus, at: number): boolean {
  return guardPassed({ ...approval, lastTypedAt: state.lastTypedAt }, at);
}
