/** The prompt's text and cursor. Pure edits, so the keys' behaviour is table-testable. */
export interface EditorState {
  text: string;
  /** Index into text, 0..text.length. */
  cursor: number;
}

export const emptyEditor: EditorState = { text: "", cursor: 0 };

export function insertText(state: EditorState, text: string): EditorState {
  // Pasted text keeps its line breaks; a CR from the terminal is a line break too.
  const clean = text.replace(/\r\n?/g, "\n");
  return {
    text: state.text.slice(0, state.cursor) + clean + state.text.slice(state.cursor),
    cursor: state.cursor + clean.length,
  };
}

export function backspace(state: EditorState): EditorState {
  if (state.cursor === 0) return state;
  return {
    text: state.text.slice(0, state.cursor - 1) + state.text.slice(state.cursor),
    cursor: state.cursor - 1,
  };
}

export function deleteForward(state: EditorState): EditorState {
  if (state.cursor >= state.text.length) return state;
  return {
    text: state.text.slice(0, state.cursor) + state.text.slice(state.cursor + 1),
    cursor: state.cursor,
  };
}

export function moveCursor(state: EditorState, delta: number): EditorState {
  return { ...state, cursor: Math.min(Math.max(state.cursor + delta, 0), state.text.length) };
}

export function lineStart(state: EditorState): EditorState {
  return { ...state, cursor: state.text.lastIndexOf("\n", state.cursor - 1) + 1 };
}

export function lineEnd(state: EditorState): EditorState {
  const end = state.text.indexOf("\n", state.cursor);
  return { ...state, cursor: end === -1 ? state.text.length : end };
}

/** Ctrl+W: deletes the word before the cursor. */
export function deleteWordBack(state: EditorState): EditorState {
  const before = state.text.slice(0, state.cursor).replace(/\S+\s*$/, "");
  return { text: before + state.text.slice(state.cursor), cursor: before.length };
}

/** Ctrl+U: deletes from the start of the line to the cursor. */
export function deleteToLineStart(state: EditorState): EditorState {
  const start = lineStart(state).cursor;
  return { text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
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
    return { ...state, cursor: Math.min(previousStart + column, start - 1) };
  }
  const end = lineEnd(state).cursor;
  if (end >= state.text.length) return state;
  const nextEnd = lineEnd({ ...state, cursor: end + 1 }).cursor;
  return { ...state, cursor: Math.min(end + 1 + column, nextEnd) };
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
