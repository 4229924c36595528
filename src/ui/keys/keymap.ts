import type { ApprovalChoice } from "./approval-choices.js";
import { graphemeAt } from "./input-editor.js";
import type { KeyEvent } from "./key-event.js";

/**
 * What the keys mean at the moment:
 * - `prompt`: editing and sending a message;
 * - `exit-armed`: the prompt after one Ctrl+C while idle, where the second Ctrl+C exits;
 * - `inspector`: the panel inspector is open (↑/↓, Enter and Esc are its own, typing still edits);
 * - `approval`: a call waits for a decision (typing still goes to the prompt);
 * - `approval-reason`: the person is writing why they deny the call;
 * - `sampling`, `url`: a server's request to use the model, or to open a web page (a numbered list);
 * - `sampling-edit`, `sampling-reason`: editing the message a server wants sampled, or why it is denied;
 * - `form`: a server's form (typing goes to the prompt until the person starts filling it in);
 * - `ctrl-x`: Ctrl+X was pressed at the prompt, and the next key finishes the chord (Ctrl+E).
 */
export type KeyMode =
  | "prompt"
  | "exit-armed"
  | "inspector"
  | "approval"
  | "approval-reason"
  | "sampling"
  | "sampling-edit"
  | "sampling-reason"
  | "url"
  | "form"
  | "menu"
  | "ctrl-x";

/** Edits of the text field in focus: the prompt, or the denial reason. */
export type EditName =
  | "backspace"
  | "deleteForward"
  | "left"
  | "right"
  | "wordLeft"
  | "wordRight"
  | "lineStart"
  | "lineEnd"
  | "deleteWordBack"
  | "deleteWordBackAlnum"
  | "deleteWordForward"
  | "deleteToLineStart"
  | "deleteToLineEnd";

/** How far a key scrolls the inspector. */
export type ScrollBy = "line-up" | "line-down" | "page-up" | "page-down" | "top" | "bottom";

/** What a key asks for. The prompt reducer decides what it does to the state (and the guard may refuse). */
export type KeyAction =
  | { type: "insert"; text: string }
  | { type: "paste"; text: string }
  | { type: "newline" }
  | { type: "edit"; edit: EditName }
  /** Enter at the prompt: send, or continue after a trailing backslash. */
  | { type: "send" }
  | { type: "complete" }
  /** Ctrl+L: erase the screen and draw the live area again. */
  | { type: "redraw" }
  /** The completion menu: move the choice, take it (and send a command, with Enter), or close it. */
  | { type: "menu_move"; direction: -1 | 1 }
  | { type: "menu_take"; submit: boolean }
  | { type: "menu_close" }
  /** ↑/↓ at the prompt: between lines, then through history. */
  | { type: "vertical"; direction: -1 | 1 }
  /** Esc at the prompt. */
  | { type: "cancel_turn" }
  /** Ctrl+C at the prompt: cancel a turn, else clear the prompt, else arm exit. */
  | { type: "interrupt" }
  /** Ctrl+D: delete forward, or exit when the prompt is empty. */
  | { type: "delete_or_exit" }
  | { type: "exit" }
  | { type: "inspector_toggle" }
  | { type: "inspector_move"; delta: -1 | 1 }
  | { type: "inspector_print" }
  | { type: "inspector_close" }
  | { type: "inspector_scroll"; by: ScrollBy }
  /** j, k, g, G or f in the inspector: a pager key when the prompt is empty, else typing. */
  | { type: "inspector_letter"; text: string }
  /** ↑/↓ on the approval list. */
  | { type: "approval_focus"; direction: -1 | 1 }
  /** A digit 1–5: focus that choice; typed text while the guard holds or a draft is open. */
  | { type: "approval_pick"; index: number; text: string }
  /** A shortcut letter: decide at once; typed text while the guard holds or a draft is open. */
  | { type: "approval_shortcut"; choice: ApprovalChoice; text: string }
  /** Enter on the approval list: confirm the focused choice once the guard has passed. */
  | { type: "approval_confirm" }
  /** Esc or Ctrl+C: deny now, without a reason. Denying is always allowed. */
  | { type: "approval_deny" }
  /** Enter while writing the reason. */
  | { type: "reason_send" }
  /** A typed character on a question's list: a shortcut or a list number once the guard is down, else typing. */
  | { type: "question_key"; text: string }
  /** ↑/↓ on a question's list. */
  | { type: "question_focus"; direction: -1 | 1 }
  /** Enter on a question's list. */
  | { type: "question_confirm" }
  /** Esc or Ctrl+C: deny a sampling request, cancel an elicitation. Saying no is always allowed. */
  | { type: "question_dismiss" }
  /** Enter in a sampling panel's edit or reason field. */
  | { type: "question_text_send" }
  /** Esc there: back to the list from the edit, or deny without a reason. */
  | { type: "question_text_back" }
  /** Keys on a form: typing, a paste, an editing key, to the next or previous field, Enter. */
  | { type: "form_text"; text: string }
  | { type: "form_paste"; text: string }
  | { type: "form_edit"; edit: EditName }
  | { type: "form_move"; direction: -1 | 1 }
  | { type: "form_enter" }
  /** Ctrl+G, or Ctrl+X then Ctrl+E: edit the prompt in $VISUAL / $EDITOR. */
  | { type: "open_editor" }
  /** Ctrl+X: the first key of a chord. */
  | { type: "chord_start" }
  /**
   * A key after Ctrl+X that finishes no chord: both are dropped, as readline does; `then`, what
   * must not be lost with them (a paste, Ctrl+C, the rest of a read), is applied after.
   */
  | { type: "chord_cancel"; then?: KeyEvent }
  | { type: "ignore" };

/** The key as one word: "ctrl+w", "alt+backspace", "shift+tab", "up". */
export function chordOf(key: Extract<KeyEvent, { kind: "key" }>): string {
  return [key.ctrl ? "ctrl" : "", key.meta ? "alt" : "", key.shift ? "shift" : "", key.name]
    .filter(Boolean)
    .join("+");
}

const edit = (name: EditName): KeyAction => ({ type: "edit", edit: name });

/** The editing keys, the same in the prompt and in the reason field. */
const EDITING: Readonly<Record<string, KeyAction>> = {
  backspace: edit("backspace"),
  delete: edit("deleteForward"),
  left: edit("left"),
  "ctrl+b": edit("left"),
  right: edit("right"),
  "ctrl+f": edit("right"),
  "ctrl+left": edit("wordLeft"),
  "alt+left": edit("wordLeft"),
  "alt+b": edit("wordLeft"),
  "ctrl+right": edit("wordRight"),
  "alt+right": edit("wordRight"),
  "alt+f": edit("wordRight"),
  home: edit("lineStart"),
  "ctrl+a": edit("lineStart"),
  end: edit("lineEnd"),
  "ctrl+e": edit("lineEnd"),
  "ctrl+w": edit("deleteWordBack"),
  "alt+backspace": edit("deleteWordBackAlnum"),
  "alt+d": edit("deleteWordForward"),
  "ctrl+u": edit("deleteToLineStart"),
  "ctrl+k": edit("deleteToLineEnd"),
};

/** The prompt's own keys, on top of the editing keys. */
const PROMPT: Readonly<Record<string, KeyAction>> = {
  ...EDITING,
  return: { type: "send" },
  "alt+return": { type: "newline" },
  "ctrl+j": { type: "newline" },
  tab: { type: "complete" },
  up: { type: "vertical", direction: -1 },
  down: { type: "vertical", direction: 1 },
  escape: { type: "cancel_turn" },
  "ctrl+c": { type: "interrupt" },
  "ctrl+d": { type: "delete_or_exit" },
  "ctrl+o": { type: "inspector_toggle" },
  "ctrl+g": { type: "open_editor" },
  "ctrl+x": { type: "chord_start" },
  "ctrl+l": { type: "redraw" },
};

/** While the completion menu is open: ↑/↓ choose, Tab takes, Enter takes (and runs a command), Esc closes it. */
const MENU: Readonly<Record<string, KeyAction>> = {
  ...PROMPT,
  up: { type: "menu_move", direction: -1 },
  down: { type: "menu_move", direction: 1 },
  tab: { type: "menu_take", submit: false },
  return: { type: "menu_take", submit: true },
  escape: { type: "menu_close" },
};

/** After Ctrl+X: Ctrl+E (or E) opens the editor, as in bash; any other key ends the chord. */
const CTRL_X: Readonly<Record<string, KeyAction>> = {
  "ctrl+e": { type: "open_editor" },
  "ctrl+x": { type: "chord_start" },
};

const EXIT_ARMED: Readonly<Record<string, KeyAction>> = { ...PROMPT, "ctrl+c": { type: "exit" } };

const INSPECTOR: Readonly<Record<string, KeyAction>> = {
  ...PROMPT,
  up: { type: "inspector_move", delta: -1 },
  down: { type: "inspector_move", delta: 1 },
  return: { type: "inspector_print" },
  escape: { type: "inspector_close" },
  pageup: { type: "inspector_scroll", by: "page-up" },
  pagedown: { type: "inspector_scroll", by: "page-down" },
};

/**
 * While a call waits, the editing keys still edit the prompt (the person may be mid-sentence), and
 * nothing exits or opens the inspector. Only Enter, a digit or a shortcut letter can decide, and
 * the reducer's guard turns those into typing while the person is typing.
 */
const APPROVAL: Readonly<Record<string, KeyAction>> = {
  ...EDITING,
  return: { type: "approval_confirm" },
  "alt+return": { type: "newline" },
  "ctrl+j": { type: "newline" },
  tab: { type: "complete" },
  up: { type: "approval_focus", direction: -1 },
  down: { type: "approval_focus", direction: 1 },
  escape: { type: "approval_deny" },
  "ctrl+c": { type: "approval_deny" },
  "ctrl+d": edit("deleteForward"),
};

const REASON: Readonly<Record<string, KeyAction>> = {
  ...EDITING,
  return: { type: "reason_send" },
  escape: { type: "approval_deny" },
  "ctrl+c": { type: "approval_deny" },
  "ctrl+d": edit("deleteForward"),
};

/** A server question's numbered list, like the approval list: editing keys still edit the prompt. */
const QUESTION_LIST: Readonly<Record<string, KeyAction>> = {
  ...EDITING,
  return: { type: "question_confirm" },
  "alt+return": { type: "newline" },
  "ctrl+j": { type: "newline" },
  tab: { type: "complete" },
  up: { type: "question_focus", direction: -1 },
  down: { type: "question_focus", direction: 1 },
  escape: { type: "question_dismiss" },
  "ctrl+c": { type: "question_dismiss" },
  "ctrl+d": edit("deleteForward"),
};

const QUESTION_TEXT: Readonly<Record<string, KeyAction>> = {
  ...EDITING,
  return: { type: "question_text_send" },
  "alt+return": { type: "newline" },
  "ctrl+j": { type: "newline" },
  escape: { type: "question_text_back" },
  "ctrl+c": { type: "question_dismiss" },
  "ctrl+d": edit("deleteForward"),
};

const FORM: Readonly<Record<string, KeyAction>> = {
  ...Object.fromEntries(
    Object.entries(EDITING).map(([chord, action]) => [
      chord,
      action.type === "edit" ? { type: "form_edit", edit: action.edit } : action,
    ]),
  ),
  return: { type: "form_enter" },
  tab: { type: "form_move", direction: 1 },
  "shift+tab": { type: "form_move", direction: -1 },
  down: { type: "form_move", direction: 1 },
  up: { type: "form_move", direction: -1 },
  escape: { type: "question_dismiss" },
  "ctrl+c": { type: "question_dismiss" },
  "ctrl+d": { type: "form_edit", edit: "deleteForward" },
};

const TABLES: Readonly<Record<KeyMode, Readonly<Record<string, KeyAction>>>> = {
  prompt: PROMPT,
  "exit-armed": EXIT_ARMED,
  inspector: INSPECTOR,
  approval: APPROVAL,
  "approval-reason": REASON,
  sampling: QUESTION_LIST,
  url: QUESTION_LIST,
  "sampling-edit": QUESTION_TEXT,
  "sampling-reason": QUESTION_TEXT,
  form: FORM,
  menu: MENU,
  "ctrl-x": CTRL_X,
};

const SHORTCUTS: Readonly<Record<string, ApprovalChoice>> = {
  y: "once",
  a: "always",
  p: "project",
  n: "deny",
  d: "reason",
};

/** Pure: what `key` asks for in `mode`. Unknown keys are ignored rather than typed. */
export function keyAction(mode: KeyMode, key: KeyEvent): KeyAction {
  switch (key.kind) {
    case "paste":
      // Ctrl+X then a paste: the chord ends, the paste is not lost.
      if (mode === "ctrl-x") return { type: "chord_cancel", then: key };
      return mode === "form" ? { type: "form_paste", text: key.text } : { type: "paste", text: key.text };
    case "text":
      if (mode === "ctrl-x") return key.text === "e" ? { type: "open_editor" } : afterCtrlX(key.text);
      if (mode === "approval") return approvalText(key.text);
      if (mode === "sampling" || mode === "url") return { type: "question_key", text: key.text };
      if (mode === "form") return { type: "form_text", text: key.text };
      if (mode === "inspector" && INSPECTOR_LETTERS.has(key.text))
        return { type: "inspector_letter", text: key.text };
      return { type: "insert", text: key.text };
    case "key": {
      const table = TABLES[mode];
      const chord = chordOf(key);
      // Shift changes nothing the table does not name (Shift+← is ←), except where it is named.
      const action = table[chord] ?? (key.shift ? table[chordOf({ ...key, shift: false })] : undefined);
      if (mode !== "ctrl-x") return action ?? { type: "ignore" };
      // Ctrl+C stops a turn whatever came before it: it ends the chord and does its own work.
      return action ?? (chord === "ctrl+c" ? { type: "chord_cancel", then: key } : { type: "chord_cancel" });
    }
  }
}

/**
 * Typing after Ctrl+X, as readline has it: the first key is dropped with the chord, and the keys
 * that came with it in the same read are typed, not lost.
 */
function afterCtrlX(text: string): KeyAction {
  const rest = text.slice(graphemeAt(text, 0).length);
  return rest === ""
    ? { type: "chord_cancel" }
    : { type: "chord_cancel", then: { kind: "text", text: rest } };
}

/** Pager letters of the inspector, as in less: j/k a line, g/G top and bottom; f shows blobs whole. */
const INSPECTOR_LETTERS = new Set(["j", "k", "g", "G", "f"]);

/** One typed character may be a shortcut or a list number; more than one at once is typing. */
function approvalText(text: string): KeyAction {
  const shortcut = SHORTCUTS[text];
  if (shortcut) return { type: "approval_shortcut", choice: shortcut, text };
  if (/^[1-5]$/.test(text)) return { type: "approval_pick", index: Number(text) - 1, text };
  return { type: "insert", text };
}
