/** The most one read returns; a longer range is cut there, with a note saying where to go on. */
export const MAX_READ_CHARS = 100_000;

export type LineRange =
  | { ok: true; text: string; startLine: number; endLine: number; nextLine: number | undefined }
  | { ok: false; reason: string };

/**
 * Lines `startLine`..`endLine` (1-based, inclusive) of `text`; missing bounds mean the start and
 * the end. A range past the end is refused, so a client learns the document is shorter.
 */
export function lineRange(
  text: string,
  lineCount: number,
  startLine: number | undefined,
  endLine: number | undefined,
): LineRange {
  const start = startLine ?? 1;
  const end = Math.min(endLine ?? lineCount, lineCount);
  if (lineCount === 0) return { ok: true, text: "", startLine: 0, endLine: 0, nextLine: undefined };
  if (start > lineCount) {
    return { ok: false, reason: `startLine ${start} is past the end of the document (${lineCount} lines).` };
  }
  if (end < start) return { ok: false, reason: `endLine ${endLine} comes before startLine ${start}.` };
  const lines = text.split("\n").slice(start - 1, end);
  let size = 0;
  let taken = 0;
  for (const line of lines) {
    if (taken > 0 && size + line.length + 1 > MAX_READ_CHARS) break;
    size += line.length + 1;
    taken++;
  }
  const last = start + taken - 1;
  return {
    ok: true,
    text: lines.slice(0, taken).join("\n"),
    startLine: start,
    endLine: last,
    nextLine: last < end ? last + 1 : undefined,
  };
}
