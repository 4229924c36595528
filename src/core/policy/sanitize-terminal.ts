/**
 * Removes what could drive a terminal from text that came from a model or a tool: ANSI CSI and
 * OSC sequences (colour, cursor moves, hyperlinks, clipboard writes), other C0/C1 controls,
 * and every character that hides text (hidden-text.ts: BiDi controls, zero-width characters, tag
 * characters and the rest). Newlines and tabs stay.
 */
import { HIDDEN_CHARACTERS } from "./hidden-text.js";

/* eslint-disable no-control-regex -- matching control characters is the point of this file. */
const ESCAPE_SEQUENCES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function sanitizeForTerminal(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, "").replace(CONTROL_CHARACTERS, "").replace(HIDDEN_CHARACTERS, "");
}
