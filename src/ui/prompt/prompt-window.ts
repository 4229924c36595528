import { displayWidth } from "../../core/text/index.js";
import { graphemeAt, type EditorState } from "../keys/input-editor.js";

/** The lines of the prompt shown when it is taller than the room it has. */
export interface PromptWindow {
  /** Index of the first and the last line shown. */
  first: number;
  last: number;
  /** Lines not shown above and below them. */
  above: number;
  below: number;
}

/**
 * Pure: which lines of a draft to show in `maxRows` rows, given how many rows each line takes
 * once wrapped. A draft that fits is shown whole. A taller one shows the cursor's line and its
 * neighbours, and one row above or below says how many lines are hidden there: the live area
 * must stay shorter than the window, or the terminal scrolls it and every redraw leaves a copy
 * of the box in the scrollback.
 */
export function promptWindow(lineRows: readonly number[], cursorLine: number, maxRows: number): PromptWindow {
  const total = lineRows.reduce((sum, rows) => sum + rows, 0);
  const lines = lineRows.length;
  if (total <= maxRows) return { first: 0, last: lines - 1, above: 0, below: 0 };
  const cursor = Math.min(Math.max(cursorLine, 0), lines - 1);
  // Two rows go to the notes of what is hidden; the cursor's line is shown whatever it takes.
  const room = Math.max(1, maxRows - 2);
  let first = cursor;
  let last = cursor;
  let used = lineRows[cursor] ?? 1;
  for (let grew = true; grew;) {
    grew = false;
    const down = lineRows[last + 1];
    if (down !== undefined && used + down <= room) {
      last += 1;
      used += down;
      grew = true;
    }
    const up = lineRows[first - 1];
    if (up !== undefined && used + up <= room) {
      first -= 1;
      used += up;
      grew = true;
    }
  }
  return { first, last, above: first, below: lines - 1 - last };
}

/** The box's border and padding, and the "› " before each line. */
const FRAME_COLUMNS = 6;
/** The box's top and bottom border. */
const FRAME_ROWS = 2;

/** The prompt box as drawn: its lines (the cursor's grapheme between two NULs), window and rows. */
export interface PromptLayout {
  lines: string[];
  window: PromptWindow;
  /** Rows the box takes on screen, its border and the notes of hidden lines included. */
  height: number;
}

/**
 * Pure: the draft's lines, the cursor's grapheme marked between two NULs (the whole grapheme is
 * inverted, so an emoji or accented letter stays whole), which of them fit `maxRows`, and the
 * rows the box takes: the approval panel is fitted to what the prompt leaves.
 */
export function promptLayout(editor: EditorState, columns: number, maxRows: number): PromptLayout {
  const before = editor.text.slice(0, editor.cursor);
  const at = graphemeAt(editor.text, editor.cursor);
  const after = editor.text.slice(editor.cursor + at.length);
  const cursorChar = at === "" || at === "\n" ? " " : at;
  const lines = `${before}\u0000${cursorChar}\u0000${at === "\n" ? "\n" : ""}${after}`.split("\n");
  const width = Math.max(1, columns - FRAME_COLUMNS);
  const rows = lines.map((line) =>
    Math.max(1, Math.ceil(displayWidth(line.replaceAll("\u0000", "")) / width)),
  );
  const window = promptWindow(rows, before.split("\n").length - 1, maxRows);
  const shown = rows.slice(window.first, window.last + 1).reduce((sum, count) => sum + count, 0);
  const notes = (window.above > 0 ? 1 : 0) + (window.below > 0 ? 1 : 0);
  return { lines, window, height: FRAME_ROWS + shown + notes };
}
