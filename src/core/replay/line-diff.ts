export interface DiffLine {
  op: "-" | "+";
  /** 1-based line number on its own side. */
  line: number;
  text: string;
}

/** Past this many lines on each side (after the common start and end), lines are not matched up. */
const MATCHED_LINES = 400;

/**
 * The lines removed from `before` and added in `after`, in order: the common start and end are
 * skipped, and the middle is matched by longest common subsequence (or, when it is long, shown
 * as all removed and all added, which stays readable and costs nothing).
 */
export function lineDiff(before: readonly string[], after: readonly string[]): DiffLine[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore -= 1;
    endAfter -= 1;
  }
  const a = before.slice(start, endBefore);
  const b = after.slice(start, endAfter);
  if (a.length > MATCHED_LINES || b.length > MATCHED_LINES) {
    return [
      ...a.map((text, index) => ({ op: "-" as const, line: start + index + 1, text })),
      ...b.map((text, index) => ({ op: "+" as const, line: start + index + 1, text })),
    ];
  }
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    const row = lengths[i] ?? [];
    const below = lengths[i + 1] ?? [];
    for (let j = b.length - 1; j >= 0; j -= 1)
      row[j] = a[i] === b[j] ? (below[j + 1] ?? 0) + 1 : Math.max(below[j] ?? 0, row[j + 1] ?? 0);
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i += 1;
      j += 1;
    } else if (i < a.length && (j >= b.length || (lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0))) {
      // Removed lines before added ones, as a person reads a change.
      lines.push({ op: "-", line: start + i + 1, text: a[i] ?? "" });
      i += 1;
    } else {
      lines.push({ op: "+", line: start + j + 1, text: b[j] ?? "" });
      j += 1;
    }
  }
  return lines;
}
