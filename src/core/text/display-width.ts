import { createRequire } from "node:module";
import type measureWidth from "string-width";

/**
 * Text measured and cut in terminal columns, one grapheme cluster at a time: a CJK character or
 * an emoji (flag, keycap) takes two columns, a combining mark or a control character none, and
 * nothing here ever cuts inside a cluster. Widths come from string-width, except for emoji joined
 * or modified into one (a ZWJ family, a skin tone): terminals disagree on those (tmux and xterm
 * draw each part, iTerm2 and kitty one glyph), so they count at the widest a terminal draws them,
 * and a line fitted here never overflows. Ink lays out with this measure too (terminalStringWidth,
 * see scripts/ink-patches.mjs), so a box's border is never pushed past the window.
 */

const ELLIPSIS = "…";
const ELLIPSIS_WIDTH = 1;

// One segmenter for the process: building one costs more than segmenting a short cell. Built at
// first use, not at import: loading ICU's break rules takes 10-30 ms that `-p` and `--help`
// would pay for nothing, since every module reaches this one through the text index.
let segmenterOnce: Intl.Segmenter | undefined;
function segmenter(): Intl.Segmenter {
  segmenterOnce ??= new Intl.Segmenter();
  return segmenterOnce;
}
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// string-width builds its Unicode-set regular expressions and a segmenter as it is imported,
// about 35 ms that `-p` would pay before its first request for text that is nearly always plain
// ASCII (which the fast paths below measure without it). So it is required at the first wider
// cluster instead; the build leaves it out of the bundle (scripts/build.mjs), so this is the very
// instance Ink measures with, loaded once.
const requireAtRunTime = createRequire(import.meta.url);
let stringWidthOnce: typeof measureWidth | undefined;
type WidthOptions = Parameters<typeof measureWidth>[1];
function stringWidth(text: string, options?: WidthOptions): number {
  stringWidthOnce ??= (requireAtRunTime("string-width") as { default: typeof measureWidth }).default;
  return stringWidthOnce(text, options);
}

// string-width re-segments whatever it is given, so measuring cluster by cluster costs about
// 6 µs each; text repeats its clusters, and this memo (cleared when full) makes them cheap.
const MAX_REMEMBERED = 4096;
const clusterWidths = new Map<string, number>();

/** A zero-width joiner or a skin-tone modifier: what makes terminals disagree on an emoji's width. */
const EMOJI_JOIN = /\u200d|[\u{1F3FB}-\u{1F3FF}]/u;

/** The columns a terminal that draws every code point of an emoji sequence on its own gives it. */
function partsWidth(cluster: string): number {
  let width = 0;
  for (const point of cluster) width += stringWidth(point);
  return width;
}

function clusterWidth(cluster: string): number {
  const code = cluster.charCodeAt(0);
  if (cluster.length === 1 && code >= 0x20 && code < 0x7f) return 1;
  let width = clusterWidths.get(cluster);
  if (width === undefined) {
    width = stringWidth(cluster);
    if (EMOJI_JOIN.test(cluster)) width = Math.max(width, partsWidth(cluster));
    if (clusterWidths.size >= MAX_REMEMBERED) clusterWidths.clear();
    clusterWidths.set(cluster, width);
  }
  return width;
}

function clusters(text: string): string[] {
  return Array.from(segmenter().segment(text), (part) => part.segment);
}

/** Terminal columns `text` takes on one line. */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const { segment } of segmenter().segment(text)) width += clusterWidth(segment);
  return width;
}

/**
 * string-width's measure, with joined emoji at their widest as displayWidth counts them: the
 * function Ink measures with in the build, so its wrapping, padding and borders agree with what
 * mcpterm fits. Takes what string-width takes (styled text, its options).
 */
export function terminalStringWidth(text: string, options?: WidthOptions): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  const width = stringWidth(text, options);
  if (!EMOJI_JOIN.test(text)) return width;
  let wider = 0;
  for (const { segment } of segmenter().segment(text))
    if (EMOJI_JOIN.test(segment)) wider += clusterWidth(segment) - stringWidth(segment);
  return width + wider;
}

/** `text` cut to at most `maxWidth` columns, ending in `…` when anything was cut. */
export function truncateEnd(text: string, maxWidth: number): string {
  const limit = Math.floor(maxWidth);
  if (limit <= 0) return "";
  if (PRINTABLE_ASCII.test(text))
    return text.length <= limit ? text : `${text.slice(0, limit - ELLIPSIS_WIDTH)}${ELLIPSIS}`;
  let width = 0;
  let keep = 0;
  // Walks only as far as the limit, so a long tool result costs no more than a short one.
  for (const { segment, index } of segmenter().segment(text)) {
    width += clusterWidth(segment);
    if (width > limit) return `${text.slice(0, keep)}${ELLIPSIS}`;
    if (width <= limit - ELLIPSIS_WIDTH) keep = index + segment.length;
  }
  return text;
}

/**
 * `text` cut to at most `maxWidth` columns by dropping its middle, so both ends of a long name
 * or path stay readable: `server-with-a-lo…/tool_name`.
 */
export function truncateMiddle(text: string, maxWidth: number): string {
  const limit = Math.floor(maxWidth);
  if (limit <= 0) return "";
  if (displayWidth(text) <= limit) return text;
  const parts = clusters(text);
  const room = limit - ELLIPSIS_WIDTH;
  let head = 0;
  let headWidth = 0;
  while (head < parts.length) {
    const width = clusterWidth(parts[head] ?? "");
    if (headWidth + width > Math.ceil(room / 2)) break;
    headWidth += width;
    head += 1;
  }
  // The end gets whatever the start left, so a wide character at the cut costs one side only.
  let tail = parts.length;
  let tailWidth = 0;
  while (tail > head) {
    const width = clusterWidth(parts[tail - 1] ?? "");
    if (headWidth + tailWidth + width > room) break;
    tailWidth += width;
    tail -= 1;
  }
  return `${parts.slice(0, head).join("")}${ELLIPSIS}${parts.slice(tail).join("")}`;
}

/**
 * One line of text broken into rows by words, as a reader wraps it: at the last space that fits
 * (the space itself dropped), or inside a word only when the word alone is wider than the row.
 * The first row is `width` columns wide, the rest `nextWidth` (room for a mark before them).
 */
export function wrapWords(line: string, width: number, nextWidth = width): string[] {
  const rows: string[] = [];
  let limit = Math.max(1, Math.floor(width));
  let row: string[] = [];
  const widthOf = (part: readonly string[]): number =>
    part.reduce((sum, cluster) => sum + clusterWidth(cluster), 0);
  for (const cluster of clusters(line)) {
    const columns = clusterWidth(cluster);
    while (row.length > 0 && widthOf(row) + columns > limit) {
      // A space at the edge ends the row and is not carried to the next.
      if (cluster === " ") break;
      const space = row.lastIndexOf(" ");
      const byWord = space > 0 && widthOf(row.slice(0, space)) <= limit;
      const cut = byWord ? space : Math.max(1, fitting(row, limit));
      rows.push(row.slice(0, cut).join(""));
      row = row.slice(byWord ? cut + 1 : cut);
      limit = Math.max(1, Math.floor(nextWidth));
    }
    if (cluster === " " && row.length > 0 && widthOf(row) + columns > limit) {
      rows.push(row.join(""));
      row = [];
      limit = Math.max(1, Math.floor(nextWidth));
      continue;
    }
    row.push(cluster);
  }
  rows.push(row.join(""));
  return rows;
}

/** How many of `parts`, from the first, fit in `limit` columns. */
function fitting(parts: readonly string[], limit: number): number {
  let width = 0;
  let count = 0;
  for (const part of parts) {
    width += clusterWidth(part);
    if (width > limit) break;
    count += 1;
  }
  return count;
}

/** `text` followed by spaces up to `width` columns; text already that wide is left as it is. */
export function padToWidth(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}
