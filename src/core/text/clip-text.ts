/**
 * Text cut to a size, for limits counted in UTF-16 code units (what `.length` counts: a search
 * field's cap, a request part's cap), never inside a character: a surrogate pair, an emoji's
 * cluster or a letter with its marks stays whole or goes whole. To fit text on screen, use
 * truncateEnd (display width) instead.
 */

let segmenterOnce: Intl.Segmenter | undefined;
function segmenter(): Intl.Segmenter {
  segmenterOnce ??= new Intl.Segmenter();
  return segmenterOnce;
}

/** Clusters are short: segmenting this far on either side of the cut finds its boundary. */
const AROUND = 64;

/** `text` cut to at most `maxUnits` UTF-16 code units at a grapheme boundary (whole when it fits). */
export function clipText(text: string, maxUnits: number): string {
  const limit = Math.max(0, Math.floor(maxUnits));
  if (text.length <= limit) return text;
  let from = Math.max(0, limit - AROUND);
  // Not between the halves of a surrogate pair: the cut may fall back to here.
  if (isLowSurrogate(text.charCodeAt(from))) from -= 1;
  let end = from;
  for (const { segment, index } of segmenter().segment(text.slice(from, limit + AROUND))) {
    const after = from + index + segment.length;
    if (after > limit) break;
    end = after;
  }
  return text.slice(0, end);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
