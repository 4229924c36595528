import { stripVTControlCharacters } from "node:util";

/** Style and hyperlink sequences a wrapped row may open with (wrap-ansi reopens them on each row). */
// eslint-disable-next-line no-control-regex -- the escape sequences are what it matches.
const LEADING_SEQUENCES = /^(?:\u001b\[[\d;]*m|\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\))*/;

/**
 * Pure: Ink's word wrap (wrap-ansi without trimming) with the spaces it moves to the start of a
 * row taken away. When a word ends exactly at the edge, wrap-ansi starts the next row with the
 * space after it, so a wrapped paragraph showed a ragged, one-column-indented line. Only rows
 * that continue a line lose their leading spaces (a row of nothing else goes); each line's own
 * indentation stays. `text` is what was wrapped, `wrapped` what wrap-ansi made of it; rows that
 * do not add up to the text's lines are left as they came.
 */
export function dropWrapSpaces(text: string, wrapped: string): string {
  // wrap-ansi wraps each line on its own, after these two changes.
  const lines = text.normalize().replaceAll("\r\n", "\n").split("\n");
  const rows = wrapped.split("\n");
  const kept: string[] = [];
  let next = 0;
  for (const line of lines) {
    const length = stripVTControlCharacters(line).length;
    let covered = 0;
    for (let first = true; first || covered < length; first = false) {
      const row = rows[next++];
      if (row === undefined) return wrapped;
      covered += stripVTControlCharacters(row).length;
      if (first) kept.push(row);
      else {
        const opening = LEADING_SEQUENCES.exec(row)?.[0] ?? "";
        const rest = row.slice(opening.length).replace(/^ +/, "");
        // wrap-ansi closes and reopens styles at each row's ends, so a blank row can go whole.
        if (stripVTControlCharacters(rest).trim() !== "") kept.push(opening + rest);
      }
    }
    if (covered !== length) return wrapped;
  }
  return next === rows.length ? kept.join("\n") : wrapped;
}
