import {
  backspace,
  deleteForward,
  deleteToLineEnd,
  deleteToLineStart,
  deleteWordBack,
  deleteWordBackAlnum,
  deleteWordForward,
  lineEnd,
  lineStart,
  moveCursor,
  wordLeft,
  wordRight,
  type EditorState,
} from "./input-editor.js";
import type { EditName } from "./keymap.js";

/** What each editing key does to a text field: the prompt, a reason, a form's field. */
export const EDITS: Readonly<Record<EditName, (state: EditorState) => EditorState>> = {
  backspace,
  deleteForward,
  left: (state) => moveCursor(state, -1),
  right: (state) => moveCursor(state, 1),
  wordLeft,
  wordRight,
  lineStart,
  lineEnd,
  deleteWordBack,
  deleteWordBackAlnum,
  deleteWordForward,
  deleteToLineStart,
  deleteToLineEnd,
};
