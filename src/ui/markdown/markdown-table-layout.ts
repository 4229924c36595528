import { displayWidth } from "../../core/text/index.js";

/** Columns between two cells: " │ ". */
const CELL_GAP = 3;
/** A column is not made narrower than this (or its longest word, when shorter). */
const MIN_COLUMN = 6;

/**
 * Pure: the width of each column of a markdown table fitted into `width`, or undefined when even
 * the narrowest layout does not fit (the table is then shown row by row). Columns take their
 * natural width when they all fit; otherwise each keeps a minimum and the room left goes to the
 * columns that want more, in proportion to what they want, so a long cell wraps and a short
 * one stays on one line.
 */
export function tableWidths(rows: readonly (readonly string[])[], width: number): number[] | undefined {
  const count = Math.max(0, ...rows.map((row) => row.length));
  if (count === 0) return [];
  const natural = Array.from({ length: count }, (_, column) =>
    Math.max(1, ...rows.map((row) => displayWidth(row[column] ?? ""))),
  );
  const room = width - CELL_GAP * (count - 1);
  if (natural.reduce((sum, value) => sum + value, 0) <= room) return natural;
  const minimum = natural.map((value, column) =>
    Math.min(value, Math.max(MIN_COLUMN, longestWord(rows, column))),
  );
  const capped = minimum.map((value) => Math.min(value, Math.max(MIN_COLUMN, Math.floor(room / count))));
  let left = room - capped.reduce((sum, value) => sum + value, 0);
  if (left < 0) return undefined;
  const widths = [...capped];
  // Water-filling: the room goes to columns still short of their natural width.
  while (left > 0) {
    const wanting = widths.map((value, column) => (natural[column] ?? 0) - value);
    const total = wanting.reduce((sum, value) => sum + Math.max(0, value), 0);
    if (total === 0) break;
    let given = 0;
    for (let column = 0; column < count; column += 1) {
      const want = Math.max(0, wanting[column] ?? 0);
      const share = Math.min(want, Math.max(want > 0 ? 1 : 0, Math.floor((left * want) / total)));
      const grant = Math.min(share, left - given);
      widths[column] = (widths[column] ?? 0) + grant;
      given += grant;
    }
    if (given === 0) break;
    left -= given;
  }
  return widths;
}

/** The longest word in a column, capped so one long URL cannot claim the whole table. */
function longestWord(rows: readonly (readonly string[])[], column: number): number {
  const words = rows.flatMap((row) => (row[column] ?? "").split(/\s+/));
  return Math.min(16, Math.max(0, ...words.map((word) => displayWidth(word))));
}
