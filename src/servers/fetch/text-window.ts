export interface TextWindow {
  text: string;
  /** Characters (code points) in the whole text. */
  total: number;
  /** Where the next call should start, when the window did not reach the end. */
  nextStart: number | undefined;
}

/**
 * `maxLength` code points of `text` from `start`. Counting code points rather than UTF-16 units
 * keeps emoji and CJK extension characters whole at the cut.
 */
export function textWindow(text: string, start: number, maxLength: number): TextWindow {
  const codePoints = Array.from(text);
  const end = Math.min(codePoints.length, start + maxLength);
  return {
    text: codePoints.slice(start, end).join(""),
    total: codePoints.length,
    nextStart: end < codePoints.length ? end : undefined,
  };
}

export function truncationNote(start: number, window: TextWindow): string {
  const end = window.nextStart ?? window.total;
  return `[content truncated: showing ${start}-${end} of ${window.total} characters; call again with start_index=${end}]`;
}
