import { displayWidth, wrapWords } from "../../core/text/index.js";

/**
 * The end of the answer still streaming, when it is taller than the rows the live area has.
 * The live area must stay shorter than the window: Ink cannot erase rows that scrolled off its
 * top, so each token would leave a copy of the paragraph in the scrollback. Until the block is
 * finished (and printed once, whole, above), only its last rows are drawn.
 */
export interface StreamingTail {
  /** The last rows, wrapped by words to the width. */
  rows: string[];
  /** Rows before them, not drawn until the block is printed whole. */
  hidden: number;
}

/** Rows Markdown may add to a plain wrap: list and quote marks indent a block by this much. */
const MARKDOWN_INDENT = 2;

/**
 * Pure: undefined when `text` surely fits `maxRows` rows of `width` (drawn as Markdown, as it
 * is), else its last rows that fit with the line saying how many are above them.
 */
export function streamingTail(text: string, width: number, maxRows: number): StreamingTail | undefined {
  const lines = text.replace(/\n$/, "").split("\n");
  const room = Math.max(1, width - MARKDOWN_INDENT);
  // Cheap and certain first (this runs on every token): a row of a word wrap, a space and the
  // next row's first word are wider than the row, so two rows hold at least room - 1 columns.
  const pair = Math.max(1, room - 1);
  const bound = lines.reduce((sum, line) => sum + 2 * Math.ceil(displayWidth(line) / pair) + 2, 0);
  if (bound <= maxRows) return undefined;
  const rows = lines.flatMap((line, index) =>
    index === lines.length - 1 ? growingRows(line, room) : rowsOf(line, room),
  );
  if (rows.length <= maxRows) return undefined;
  // One row says how many are above.
  const shown = Math.max(1, maxRows - 1);
  return { rows: rows.slice(-shown), hidden: rows.length - shown };
}

/** Finished lines wrapped once each, at one width: only the last line grows while streaming. */
const finishedLines = new Map<string, string[]>();
let finishedWidth = 0;
const FINISHED_KEPT = 200;

function rowsOf(line: string, width: number): string[] {
  if (width !== finishedWidth || finishedLines.size > FINISHED_KEPT) {
    finishedLines.clear();
    finishedWidth = width;
  }
  const known = finishedLines.get(line);
  if (known) return known;
  const rows = wrapWords(line, width);
  finishedLines.set(line, rows);
  return rows;
}

/**
 * The growing line, wrapped again only from its last row: a word wrap is settled up to the row
 * being filled, so appending a token changes that row only. Wrapping a 10 KB paragraph whole on
 * each of its tokens would cost far more than drawing it.
 */
let growing: { line: string; width: number; settled: string[]; offset: number } | undefined;

function growingRows(line: string, width: number): string[] {
  const from = growing && growing.width === width && line.startsWith(growing.line) ? growing : undefined;
  const settled = from ? [...from.settled] : [];
  let offset = from ? from.offset : 0;
  const rows = wrapWords(line.slice(offset), width);
  for (const row of rows.slice(0, -1)) {
    settled.push(row);
    offset += row.length;
    // A break at a space drops that space: the next row starts after it.
    if (line[offset] === " ") offset += 1;
  }
  growing = { line, width, settled, offset };
  return [...settled, rows.at(-1) ?? ""];
}
