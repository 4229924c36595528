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
