import { describe, expect, it } from "vitest";
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
  moveLine,
  wordLeft,
  wordRight,
  type EditorState,
} from "../../src/ui/keys/input-editor.js";

/** "ab|c" is the text "abc" with the cursor before "c". */
function at(marked: string): EditorState {
  const cursor = marked.indexOf("|");
  return { text: marked.replace("|", ""), cursor };
}

function show(state: EditorState): string {
  return `${state.text.slice(0, state.cursor)}|${state.text.slice(state.cursor)}`;
}

type Edit = (state: EditorState) => EditorState;

describe("input editor keys", () => {
  it.each<[string, Edit, string, string]>([
    ["Backspace deletes the character before the cursor", backspace, "ab|c", "a|c"],
    ["Backspace at the start does nothing", backspace, "|abc", "|abc"],
    ["Backspace deletes a whole emoji", backspace, "a👍🏽|", "a|"],
    ["Backspace deletes a letter with its accent", backspace, "cafe\u0301|", "caf|"],
    ["Delete deletes the character under the cursor", deleteForward, "a|bc", "a|c"],
    ["Delete at the end does nothing", deleteForward, "abc|", "abc|"],
    ["Delete deletes a whole emoji", deleteForward, "|👍🏽b", "|b"],
    ["← steps over an emoji in one press", (s) => moveCursor(s, -1), "a👍🏽|", "a|👍🏽"],
    ["→ steps over an emoji in one press", (s) => moveCursor(s, 1), "a|👍🏽", "a👍🏽|"],
    ["← stops at the start", (s) => moveCursor(s, -1), "|a", "|a"],
    ["→ stops at the end", (s) => moveCursor(s, 1), "a|", "a|"],
    ["Alt+B goes to the start of the word", wordLeft, "run the to|ol", "run the |tool"],
    ["Alt+B from a word start goes to the previous word", wordLeft, "run the |tool", "run |the tool"],
    ["Alt+B stops at path separators", wordLeft, "src/ui/App|", "src/ui/|App"],
    ["Alt+B at the start stays", wordLeft, "|run", "|run"],
    ["Alt+F goes to the end of the next word", wordRight, "run| the tool", "run the| tool"],
    ["Alt+F inside a word goes to its end", wordRight, "r|un the", "run| the"],
    ["Alt+F at the end stays", wordRight, "run|", "run|"],
    ["Alt+F treats accented letters as letters", wordRight, "|café au", "café| au"],
    ["Home goes to the start of the line", lineStart, "one\ntw|o", "one\n|two"],
    ["End goes to the end of the line", lineEnd, "o|ne\ntwo", "one|\ntwo"],
    ["Ctrl+W deletes back to whitespace", deleteWordBack, "run the tool|", "run the |"],
    ["Ctrl+W deletes a whole path", deleteWordBack, "open src/ui/App.tsx|", "open |"],
    ["Ctrl+W takes the spaces after the word too", deleteWordBack, "run the  |x", "run |x"],
    ["Ctrl+W at the start does nothing", deleteWordBack, "|run", "|run"],
    ["Alt+Backspace deletes one path component", deleteWordBackAlnum, "src/ui/App|", "src/ui/|"],
    ["Alt+Backspace deletes the word and the spaces after it", deleteWordBackAlnum, "run the |x", "run |x"],
    ["Alt+D deletes to the end of the word", deleteWordForward, "run |the tool", "run | tool"],
    ["Alt+D at the end does nothing", deleteWordForward, "run|", "run|"],
    ["Ctrl+U deletes to the start of the line", deleteToLineStart, "one\ntw|o", "one\n|o"],
    ["Ctrl+K deletes to the end of the line", deleteToLineEnd, "o|ne\ntwo", "o|\ntwo"],
    ["Ctrl+K at the end of a line joins the next", deleteToLineEnd, "one|\ntwo", "one|two"],
    ["Ctrl+K at the end of the text does nothing", deleteToLineEnd, "one|", "one|"],
    ["↑ keeps the column on the line above", (s) => moveLine(s, -1), "abc\nd|e", "a|bc\nde"],
    ["↓ keeps the column where it can", (s) => moveLine(s, 1), "abcde|f\nde", "abcdef\nde|"],
    ["↑ never lands inside an emoji", (s) => moveLine(s, -1), "a👍\nab|c", "a|👍\nabc"],
  ])("%s", (_name, edit, before, after) => {
    expect(show(edit(at(before)))).toBe(after);
  });
});
