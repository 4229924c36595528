import { displayWidth, truncateEnd } from "../../core/text/index.js";

/** One piece of a line that may have to give way in a narrow window. */
export interface Part<Tag = undefined> {
  text: string;
  /** A shorter form, used before anything is dropped. */
  short?: string;
  /** Higher gives way later. The highest part is never dropped, only cut at its end. */
  priority: number;
  tag: Tag;
}

export interface FittedPart<Tag> {
  text: string;
  tag: Tag;
}

/**
 * Pure: the parts that fit in `width` columns joined by `separator`, in their order. Parts give
 * way by priority, lowest first: every part that has a short form takes it, then parts are dropped,
 * and what still does not fit is cut at its end (by display width, so CJK and emoji fit too).
 */
export function fitParts<Tag>(
  parts: readonly Part<Tag>[],
  width: number,
  separator = " · ",
): Array<FittedPart<Tag>> {
  const chosen = parts.map((part) => ({ part, text: part.text, shown: true }));
  const total = (): number => {
    const shown = chosen.filter((entry) => entry.shown);
    return (
      shown.reduce((sum, entry) => sum + displayWidth(entry.text), 0) +
      Math.max(0, shown.length - 1) * displayWidth(separator)
    );
  };
  const byPriority = [...chosen].sort((a, b) => a.part.priority - b.part.priority);
  for (const entry of byPriority) {
    if (total() <= width) break;
    if (entry.part.short !== undefined) entry.text = entry.part.short;
  }
  for (const entry of byPriority.slice(0, -1)) {
    if (total() <= width) break;
    entry.shown = false;
  }
  const shown = chosen.filter((entry) => entry.shown);
  const over = total() - width;
  if (over > 0) {
    const last = shown.at(-1);
    if (last) last.text = truncateEnd(last.text, Math.max(1, displayWidth(last.text) - over));
  }
  return shown.map((entry) => ({ text: entry.text, tag: entry.part.tag }));
}
