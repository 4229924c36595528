/**
 * Where streamed markdown can be cut so the part before it is final: the last blank line that is
 * not inside a fenced code block. Moving that part into <Static> keeps the live region small.
 * Returns [finished, rest]; finished is "" when there is no safe point yet.
 */
export function splitAtSafePoint(text: string): [string, string] {
  let inFence = false;
  let safe = -1;
  let offset = 0;
  const lines = text.split("\n");
  // The last line may still be growing, so only blank lines followed by more text count.
  for (let index = 0; index < lines.length - 1; index += 1) {
    const line = lines[index] ?? "";
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    offset += line.length + 1;
    if (!inFence && line.trim() === "" && index > 0) safe = offset;
  }
  if (safe <= 0) return ["", text];
  return [text.slice(0, safe).replace(/\n+$/, ""), text.slice(safe)];
}
