/**
 * Removes what could drive a terminal from text that came from a model or a tool: ANSI CSI and
 * OSC sequences (colour, cursor moves, hyperlinks, clipboard writes), other C0/C1 controls,
 * and every character that hides text (hidden-text.ts: BiDi controls, zero-width characters, tag
 * characters and the rest). Newlines and tabs stay.
 */
import { HIDDEN_CHARACTERS, hasHiddenText, revealHiddenText } from "./hidden-text.js";

/* eslint-disable no-control-regex -- matching control characters is the point of this file. */
// An OSC or other string sequence without its terminator ends at the line's end: a stray one
// (a log cut mid-sequence) would otherwise take every line after it out of sight.
const ESCAPE_SEQUENCES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b\n]*(?:\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function sanitizeForTerminal(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, "").replace(CONTROL_CHARACTERS, "").replace(HIDDEN_CHARACTERS, "");
}

/** Line breaks, with the spaces around them (`\r` is a control, already gone by then). */
const LINE_BREAKS = /[ \t]*[\n\u2028\u2029]+[ \t]*/g;
/**
 * A run of spaces, which can push what follows it to the start of the terminal's next row (two
 * are left as they are: mcpterm's own lines use them to set parts apart).
 */
const SPACE_RUNS = /[ \t]*\t[ \t]*|[ ]{3,}/g;

/**
 * sanitizeForTerminal for text shown within one line of mcpterm's own (an error or warning line,
 * a name in a listing): each run of line breaks becomes ` ⏎ `, so text from a server or a model
 * cannot start a line of its own that reads as mcpterm's (`mcpterm: your key was revoked`), and
 * each run of three or more spaces (or a tab) one space, so padding cannot push such words to the
 * start of a wrapped row.
 */
export function sanitizeOneLine(text: string): string {
  return sanitizeForTerminal(text).replace(LINE_BREAKS, " ⏎ ").replace(SPACE_RUNS, " ");
}

const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Whether `text` holds a C0/C1 control (tab and newline included) or a hidden character (BiDi and the rest). */
export function hasControlOrHidden(text: string): boolean {
  ANY_CONTROL.lastIndex = 0;
  return ANY_CONTROL.test(text) || hasHiddenText(text);
}

/**
 * A name as a client or a terminal may be shown it: each control or hidden character written
 * out as `⟨U+202E⟩`, so a name cannot reorder, hide or drive what is shown around it.
 */
export function revealControls(text: string): string {
  return revealHiddenText(text).replace(
    ANY_CONTROL,
    (character) => `⟨U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}⟩`,
  );
}
