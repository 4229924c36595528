/* eslint-disable no-control-regex -- the keys are read from the escape sequences terminals send. */
import { EDITS } from "./editor-edits.js";
import {
  deleteForward,
  emptyEditor,
  insertText,
  moveLine,
  pressEnter,
  type EditorState,
} from "./input-editor.js";
import { pasteKey, splitTyped, type KeyEvent } from "./key-event.js";
import { keyAction } from "./keymap.js";
import { pastedText } from "./pasted-text.js";

/**
 * What keys typed before Ink loaded amount to at the prompt: the messages Enter would have sent,
 * and the draft left. Read as Ink reads a terminal's bytes, then applied through the prompt's own
 * keymap and edits, so Ctrl+U, Ctrl+W, Alt+Backspace, arrows and Home/End do here what they do
 * there, and text a person erased stays erased.
 */
export interface TypedPrompt {
  sent: string[];
  draft: EditorState;
}

export function replayTyped(bytes: string): TypedPrompt {
  let draft = emptyEditor;
  const sent: string[] = [];
  for (const key of keyEventsOf(bytes)) {
    const action = keyAction("prompt", key);
    if (action.type === "insert" || action.type === "paste")
      draft = insertText(draft, pastedText(action.text));
    else if (action.type === "newline") draft = insertText(draft, "\n");
    else if (action.type === "edit") draft = EDITS[action.edit](draft);
    else if (action.type === "vertical") draft = moveLine(draft, action.direction);
    else if (action.type === "delete_or_exit") draft = deleteForward(draft);
    else if (action.type === "send") {
      const entered = pressEnter(draft);
      if (entered.submit === undefined) draft = entered.state;
      else {
        if (entered.submit.trim() !== "") sent.push(entered.submit);
        draft = emptyEditor;
      }
    }
    // Anything else (completion, history, panels, Ctrl+X chords) is nothing a draft typed blind relies on.
  }
  return { sent, draft };
}

/**
 * Keys typed for the prompt that a question asked before the TUI (the trust question, the
 * session picker) finds waiting, and what of them goes back to the prompt once it is answered.
 * Keys that end no line come back as they were typed, so the prompt takes them as it would
 * have (a paste stays a paste, the cursor where it was left). The lines Enter would have sent
 * are dropped: typed before the question showed, a line may be a reflex answer to it ("y" and
 * Enter), and the question's guard drops every early line. The draft after them comes back
 * as one bracketed paste of its text.
 */
export function draftAside(keys: string): { giveBack: string; ignoredSome: boolean } {
  const { sent, draft } = replayTyped(keys);
  if (sent.length === 0) return { giveBack: keys, ignoredSome: false };
  return { giveBack: draft.text === "" ? "" : `${PASTE_START}${draft.text}${PASTE_END}`, ignoredSome: true };
}

/** CSI and SS3 finals of the keys the prompt uses. */
const FINAL_KEYS: Readonly<Record<string, string>> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
};
/** `ESC [ n ~` keys. */
const TILDE_KEYS: Readonly<Record<string, string>> = {
  "1": "home",
  "7": "home",
  "4": "end",
  "8": "end",
  "3": "delete",
  "5": "pageup",
  "6": "pagedown",
};
const PASTE_START = "\u001b[200~";
const PASTE_END = "\u001b[201~";

/**
 * A terminal's bytes as key events, as Ink hands them to the prompt: text, bracketed pastes, and
 * named keys with their modifiers (`ESC [ 1 ; 5 D` is Ctrl+←, `ESC b` Alt+B, `ESC DEL`
 * Alt+Backspace). Strings (OSC, DCS, APC, PM), a terminal's own replies (`ESC [ ? 1 ; 2 c`) and
 * sequences no key sends are dropped.
 */
export function keyEventsOf(bytes: string): KeyEvent[] {
  const events: KeyEvent[] = [];
  let at = 0;
  let text = "";
  const flush = (): void => {
    if (text) events.push(...splitTyped(text));
    text = "";
  };
  while (at < bytes.length) {
    const escape = bytes.indexOf("\u001b", at);
    text += bytes.slice(at, escape === -1 ? bytes.length : escape);
    if (escape === -1) break;
    flush();
    if (bytes.startsWith(PASTE_START, escape)) {
      const end = bytes.indexOf(PASTE_END, escape + PASTE_START.length);
      events.push(pasteKey(bytes.slice(escape + PASTE_START.length, end === -1 ? bytes.length : end)));
      at = end === -1 ? bytes.length : end + PASTE_END.length;
      continue;
    }
    const rest = bytes.slice(escape);
    const sequence =
      /^\u001b\[([<=>?]?[0-9;:]*)[ -/]*([@-~])/.exec(rest) ??
      /^\u001bO()([A-Z])/.exec(rest) ??
      /^\u001b[\]P_^][^\u0007\u001b]*(?:\u0007|\u001b\\)?()()/.exec(rest);
    if (sequence) {
      const [whole, params = "", final = ""] = sequence;
      const [first = "", modifier] = params.split(";");
      // SS3 M is Enter on the keypad in application mode, as Ink reads it (CSI M is the mouse).
      const keypadEnter = final === "M" && whole.startsWith("\u001bO");
      const name = keypadEnter ? "return" : final === "~" ? TILDE_KEYS[first] : FINAL_KEYS[final];
      if (name) events.push({ kind: "key", name, ...modifiers(modifier) });
      at = escape + whole.length;
      continue;
    }
    const next = bytes.charAt(escape + 1);
    const control = next !== "" && next < " " && next !== "\u001b" ? splitTyped(next)[0] : undefined;
    if (next === "\u007f" || next === "\b") {
      events.push({ kind: "key", name: "backspace", ctrl: false, meta: true, shift: false });
      at = escape + 2;
    } else if (control?.kind === "key") {
      // Alt with a control key, as Ink gives it: Alt+Enter (ESC CR) is Enter with meta set.
      events.push({ ...control, meta: true });
      at = escape + 2;
    } else if (next >= " " && next <= "~") {
      // Alt+letter, as Ink gives it: the letter with meta set.
      events.push({ kind: "key", name: next.toLowerCase(), ctrl: false, meta: true, shift: false });
      at = escape + 2;
    } else {
      events.push({ kind: "key", name: "escape", ctrl: false, meta: false, shift: false });
      at = escape + 1;
    }
  }
  flush();
  return events;
}

/** xterm's modifier parameter: 1 plus Shift 1, Alt 2, Ctrl 4. */
function modifiers(parameter: string | undefined): { ctrl: boolean; meta: boolean; shift: boolean } {
  const bits = Math.max(0, Number(parameter ?? "1") - 1);
  return { shift: (bits & 1) !== 0, meta: (bits & 2) !== 0, ctrl: (bits & 4) !== 0 };
}
