import type { TextRedaction } from "./secret-patterns.js";

/**
 * How far past a cut a secret the cut splits may reach (a 16384-bit RSA key in PEM is about
 * 12,700 characters): a part kept of a longer text is cleaned with at least this much of what
 * lies beyond.
 */
export const SECRET_REACH = 16 * 1024;

export interface CleanedPart extends TextRedaction {
  /** Whether some of the text was left out. */
  cut: boolean;
  /** What the whole would come to: the part read, cleaned, and the part never read. */
  total: number;
}

/**
 * The first (or last) `chars` characters of `text` as `clean` makes it (secrets redacted,
 * controls stripped), without cleaning all of a text of megabytes. `clean` reads SECRET_REACH
 * characters past the cut, so a secret the cut splits is still whole to it; what it takes out
 * (a key become `[REDACTED]`, colour codes gone) lets the kept part reach that much further in,
 * so where it took out more, it reads again with more, until the kept part stays SECRET_REACH
 * clear of where reading stopped. Counted in cleaned characters, the cut never lands in text
 * that was read without what follows it.
 */
export async function cleanedPart(
  text: string,
  chars: number,
  from: "start" | "end",
  clean: (text: string) => Promise<TextRedaction>,
): Promise<CleanedPart> {
  for (let margin = SECRET_REACH; ;) {
    const length = Math.min(text.length, chars + margin);
    const read = from === "start" ? text.slice(0, length) : text.slice(text.length - length);
    const cleaned = await clean(read);
    const shrunk = read.length - cleaned.text.length;
    if (length === text.length || margin - shrunk >= SECRET_REACH) {
      const total = cleaned.text.length + text.length - length;
      const cut = total > chars;
      return { text: cut ? keep(cleaned.text, chars, from) : cleaned.text, rules: cleaned.rules, cut, total };
    }
    // At least doubled: a text that cleans away almost whole (megabytes of escape codes) is read
    // in a few passes, not one per margin's worth.
    margin = Math.max(2 * margin, shrunk + 2 * SECRET_REACH);
  }
}

/** `chars` characters of one end of `text`, never half a surrogate pair. */
function keep(text: string, chars: number, from: "start" | "end"): string {
  if (from === "start") {
    const last = text.charCodeAt(chars - 1);
    return text.slice(0, last >= 0xd800 && last <= 0xdbff ? chars - 1 : chars);
  }
  const at = Math.max(0, text.length - chars);
  const first = text.charCodeAt(at);
  return text.slice(first >= 0xdc00 && first <= 0xdfff ? at + 1 : at);
}
