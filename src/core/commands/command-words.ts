/**
 * How a slash command's words are typed: split at spaces, a quoted word kept whole, and the
 * other way round, a word quoted so that it comes back whole.
 */

/**
 * A command's arguments split on spaces, where a word that starts with a quote and has a
 * closing quote before a space or the end is one word without them (`"my notes.md"`, `'it's
 * here'`; in double quotes, `\"` and `\\` stand for `"` and `\`). Any other quote is a
 * character: `o'neil's.md` and `mem://o'neil/o'brien` stay as typed.
 */
export function commandWords(typed: string): string[] {
  const words: string[] = [];
  let at = 0;
  while (at < typed.length) {
    while (at < typed.length && /\s/.test(typed.charAt(at))) at += 1;
    if (at >= typed.length) break;
    const quoted = quotedWordAt(typed, at);
    if (quoted) {
      words.push(quoted.word);
      at = quoted.end;
      continue;
    }
    const end = typed.slice(at).search(/\s/);
    const stop = end === -1 ? typed.length : at + end;
    words.push(typed.slice(at, stop));
    at = stop;
  }
  return words;
}

/** The quoted word that starts at `start`, and where it ends; undefined when none does. */
function quotedWordAt(typed: string, start: number): { word: string; end: number } | undefined {
  const quote = typed.charAt(start);
  if (quote !== '"' && quote !== "'") return undefined;
  let word = "";
  for (let at = start + 1; at < typed.length; at += 1) {
    const char = typed.charAt(at);
    if (quote === '"' && char === "\\" && /["\\]/.test(typed.charAt(at + 1))) {
      word += typed.charAt(at + 1);
      at += 1;
    } else if (char === quote && (at + 1 === typed.length || /\s/.test(typed.charAt(at + 1)))) {
      return { word, end: at + 1 };
    } else word += char;
  }
  return undefined;
}

/** A word as it must be typed to come back whole from commandWords: quoted when it holds a space or a quote. */
export function quotedWord(word: string): string {
  return /[\s"']/.test(word) ? `"${word.replace(/[\\"]/g, "\\$&")}"` : word;
}

/** The text typed after the first word (a subcommand), as typed. */
export function typedAfterFirstWord(typed: string): string {
  return typed.replace(/^\S+\s*/, "");
}
