/** A passage: lines [start, end), 0-based; `text` only when one over-long line had to be cut. */
export interface Passage {
  start: number;
  end: number;
  text?: string;
}

export interface PassageOptions {
  maxChars: number;
  /** Trailing lines of a passage repeated at the head of the next, up to this many characters. */
  overlapChars: number;
  /** A last passage smaller than this joins the one before it. */
  minChars: number;
  /** Lines at which a passage may end (blank lines outside code fences). */
  isBreak: (line: number) => boolean;
  /** Where a passage prefers to start once it is at least half full (top-level definitions). */
  prefersStart?: (line: number) => boolean;
}

interface Unit {
  start: number;
  end: number;
  size: number;
}

const MAX_OVERLAP_LINES = 2;

/**
 * Splits lines [start, end) into passages of at most `maxChars`, breaking between blocks (runs
 * of lines between breaks), then between lines, and only as a last resort inside a line.
 */
export function splitPassages(
  lines: readonly string[],
  start: number,
  end: number,
  options: PassageOptions,
): Passage[] {
  const range = trimBlank(lines, start, end);
  if (range.start >= range.end) return [];
  const size = (from: number, to: number): number => rangeSize(lines, from, to);
  if (size(range.start, range.end) <= options.maxChars) return [range];

  const passages: Passage[] = [];
  let current: Unit | undefined;
  const flush = (): void => {
    if (current) passages.push({ start: current.start, end: current.end });
  };
  for (const unit of units(lines, range.start, range.end, options)) {
    if (unit.size > options.maxChars) {
      flush();
      current = undefined;
      passages.push(...cutLine(lines[unit.start] ?? "", unit.start, options.maxChars));
      continue;
    }
    if (current === undefined) {
      current = unit;
      continue;
    }
    const merged = size(current.start, unit.end);
    const preferNew = options.prefersStart?.(unit.start) === true && current.size >= options.maxChars / 2;
    if (merged <= options.maxChars && !preferNew) {
      current = { start: current.start, end: unit.end, size: merged };
      continue;
    }
    flush();
    const overlapStart = overlapFrom(lines, current, options.overlapChars);
    const withOverlap = size(overlapStart, unit.end);
    current =
      overlapStart < current.end && withOverlap <= options.maxChars
        ? { start: overlapStart, end: unit.end, size: withOverlap }
        : unit;
  }
  flush();
  return mergeSmallTail(lines, passages, options);
}

/** Blocks between breaks; a block too big for one passage is offered line by line. */
function units(lines: readonly string[], start: number, end: number, options: PassageOptions): Unit[] {
  const result: Unit[] = [];
  let blockStart: number | undefined;
  const close = (blockEnd: number): void => {
    if (blockStart === undefined) return;
    const range = trimBlank(lines, blockStart, blockEnd);
    const blockSize = rangeSize(lines, range.start, range.end);
    if (blockSize <= options.maxChars) {
      if (range.start < range.end) result.push({ ...range, size: blockSize });
    } else {
      for (let i = range.start; i < range.end; i++) {
        if ((lines[i] ?? "").trim() !== "")
          result.push({ start: i, end: i + 1, size: (lines[i] ?? "").length });
      }
    }
    blockStart = undefined;
  };
  for (let i = start; i < end; i++) {
    const startsPreferred = options.prefersStart?.(i) === true;
    if (options.isBreak(i) || startsPreferred) close(i);
    if (!options.isBreak(i)) blockStart ??= i;
  }
  close(end);
  return result;
}

function overlapFrom(lines: readonly string[], passage: Unit, overlapChars: number): number {
  let from = passage.end;
  let taken = 0;
  let chars = 0;
  while (from - 1 > passage.start && taken < MAX_OVERLAP_LINES) {
    const line = lines[from - 1] ?? "";
    if (line.trim() === "") break;
    if (chars + line.length + 1 > overlapChars) break;
    chars += line.length + 1;
    taken++;
    from--;
  }
  return from;
}

function mergeSmallTail(lines: readonly string[], passages: Passage[], options: PassageOptions): Passage[] {
  const last = passages.at(-1);
  const previous = passages.at(-2);
  if (!last || !previous || last.text !== undefined || previous.text !== undefined) return passages;
  if (rangeSize(lines, last.start, last.end) >= options.minChars) return passages;
  if (rangeSize(lines, previous.start, last.end) > options.maxChars * 1.25) return passages;
  return [...passages.slice(0, -2), { start: previous.start, end: last.end }];
}

/** A single line longer than a passage (minified code, a log line) is cut at spaces if it can be. */
function cutLine(line: string, index: number, maxChars: number): Passage[] {
  const pieces: Passage[] = [];
  let rest = line;
  while (rest.length > 0) {
    let cut = rest.length <= maxChars ? rest.length : rest.lastIndexOf(" ", maxChars);
    if (cut < maxChars / 2) cut = Math.min(maxChars, rest.length);
    const text = rest.slice(0, cut).trim();
    if (text) pieces.push({ start: index, end: index + 1, text });
    rest = rest.slice(cut);
  }
  return pieces;
}

function trimBlank(lines: readonly string[], start: number, end: number): { start: number; end: number } {
  let from = start;
  let to = end;
  while (from < to && (lines[from] ?? "").trim() === "") from++;
  while (to > from && (lines[to - 1] ?? "").trim() === "") to--;
  return { start: from, end: to };
}

function rangeSize(lines: readonly string[], start: number, end: number): number {
  let size = 0;
  for (let i = start; i < end; i++) size += (lines[i] ?? "").length + 1;
  return Math.max(0, size - 1);
}
