/** The prompt's text and cursor. Pure edits, so the keys' behaviour is table-testable. */
export interface EditorState {
  text: string;
  /** Index into text, 0..text.length, always on a grapheme boundary. */
  cursor: number;
}

export const emptyEditor: EditorState = { text: "", cursor: 0 };

// One "character" for the cursor is a grapheme: an emoji or an accented letter is one Backspace.
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function previousBoundary(text: string, index: number): number {
  if (index <= 0) return 0;
  return graphemes.segment(text).containing(index - 1)?.index ?? index - 1;
}

/** The start of the grapheme `index` falls in, so a column kept across lines never splits one. */
function snapToBoundary(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return index;
  return graphemes.segment(text).containing(index)?.index ?? index;
}

/** The whole grapheme starting at `index` ("" at the end), so a cursor never splits an emoji. */
export function graphemeAt(text: string, index: number): string {
  if (index >= text.length) return "";
  const segment = graphemes.segment(text).containing(index);
  return segment ? segment.segment : text.charAt(index);
}

function nextBoundary(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const segment = graphemes.segment(text).containing(index);
  return segment ? segment.index + segment.segment.length : index + 1;
}

/** Alt+B/F, Alt+D, Alt+Backspace and Ctrl+arrows move over words of letters and digits, as readline does. */
const WORD_CHARACTER = /[\p{L}\p{M}\p{N}_]/u;

function isWordAt(text: string, index: number): boolean {
  return WORD_CHARACTER.test(text.charAt(index));
}

function previousWordStart(text: string, cursor: number): number {
  let index = cursor;
  while (index > 0 && !isWordAt(text, index - 1)) index -= 1;
  while (index > 0 && isWordAt(text, index - 1)) index -= 1;
  return index;
}

function nextWordEnd(text: string, cursor: number): number {
  let index = cursor;
  while (index < text.length && !isWordAt(text, index)) index += 1;
  while (index < text.length && isWordAt(text, index)) index += 1;
  return index;
}

/** Removes text[from, to) and leaves the cursor at `from`. */
function cut(state: EditorState, from: number, to: number): EditorState {
  if (from >= to) return state;
  return { text: state.text.slice(0, from) + state.text.slice(to), cursor: from };
}

export function insertText(state: EditorState, text: string): EditorState {
  // Pasted text keeps its line breaks; a CR from the terminal is a line break too.
  const clean = text.replace(/\r\n?/g, "\n");
  return {
    text: state.text.slice(0, state.cursor) + clean + state.text.slice(state.cursor),
    cursor: state.cursor + clean.length,
  };
}

export function backspace(state: EditorState): EditorState {
  return cut(state, previousBoundary(state.text, state.cursor), state.cursor);
}

/** Delete and Ctrl+D: the character under the cursor. */
export function deleteForward(state: EditorState): EditorState {
  return cut(state, state.cursor, nextBoundary(state.text, state.cursor));
}

/** ←/→ (and Ctrl+B/F): one character, never into the middle of one. */
export function moveCursor(state: EditorState, direction: -1 | 1): EditorState {
  const cursor =
    direction < 0 ? previousBoundary(state.text, state.cursor) : nextBoundary(state.text, state.cursor);
  return { ...state, cursor };
}

/** Alt+B, Ctrl+←, Alt+←: to the start of this or the previous word. */
export function wordLeft(state: EditorState): EditorState {
  return { ...state, cursor: previousWordStart(state.text, state.cursor) };
}

/** Alt+F, Ctrl+→, Alt+→: to the end of this or the next word. */
export function wordRight(state: EditorState): EditorState {
  return { ...state, cursor: nextWordEnd(state.text, state.cursor) };
}

/** Home, Ctrl+A: the start of the cursor's line. */
export function lineStart(state: EditorState): EditorState {
  return { ...state, cursor: state.text.lastIndexOf("\n", state.cursor - 1) + 1 };
}

/** End, Ctrl+E: the end of the cursor's line. */
export function lineEnd(state: EditorState): EditorState {
  const end = state.text.indexOf("\n", state.cursor);
  return { ...state, cursor: end === -1 ? state.text.length : end };
}

/** Ctrl+W: deletes back to the previous whitespace, so a path or URL goes in one press (as in a shell). */
export function deleteWordBack(state: EditorState): EditorState {
  const before = state.text.slice(0, state.cursor).replace(/\S+\s*$/, "");
  return cut(state, before.length, state.cursor);
}

/** Alt+Backspace: deletes back to the start of the word, stopping at punctuation like `/`. */
export function deleteWordBackAlnum(state: EditorState): EditorState {
  return cut(state, previousWordStart(state.text, state.cursor), state.cursor);
}

/** Alt+D: deletes to the end of the word. */
export function deleteWordForward(state: EditorState): EditorState {
  return cut(state, state.cursor, nextWordEnd(state.text, state.cursor));
}

/** Ctrl+U: deletes from the start of the line to the cursor. */
export function deleteToLineStart(state: EditorState): EditorState {
  return cut(state, lineStart(state).cursor, state.cursor);
}

/** Ctrl+K: deletes to the end of the line; at the end of a line it joins the next one, as in Emacs. */
export function deleteToLineEnd(state: EditorState): EditorState {
  const end = lineEnd(state).cursor;
  return cut(state, state.cursor, end === state.cursor ? nextBoundary(state.text, end) : end);
}

/** Whether Up/Down should move through history rather than between lines. */
export function onFirstLine(state: EditorState): boolean {
  return !state.text.slice(0, state.cursor).includes("\n");
}

export function onLastLine(state: EditorState): boolean {
  return !state.text.slice(state.cursor).includes("\n");
}

/** Moves the cursor one line up or down, keeping the column where it can. */
export function moveLine(state: EditorState, direction: -1 | 1): EditorState {
  const start = lineStart(state).cursor;
  const column = state.cursor - start;
  if (direction < 0) {
    if (start === 0) return state;
    const previousStart = state.text.lastIndexOf("\n", start - 2) + 1;
    return { ...state, cursor: snapToBoundary(state.text, Math.min(previousStart + column, start - 1)) };
  }
  const end = lineEnd(state).cursor;
  if (end >= state.text.length) return state;
  const nextEnd = lineEnd({ ...state, cursor: end + 1 }).cursor;
  return { ...state, cursor: snapToBoundary(state.text, Math.min(end + 1 + column, nextEnd)) };
}

/**
 * Enter: a line ending in `\` continues on a new line (the portable multi-line key);
 * otherwise the text is ready to send.
 */
export function pressEnter(state: EditorState): { state: EditorState; submit: string | undefined } {
  const before = state.text.slice(0, state.cursor);
  if (before.endsWith("\\")) {
    return {
      state: { text: `${before.slice(0, -1)}\n${state.text.slice(state.cursor)}`, cursor: state.cursor },
      submit: undefined,
    };
  }
  return { state, submit: state.text };
}
