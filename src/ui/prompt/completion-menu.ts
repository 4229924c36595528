import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";

/** A word the menu offers, and what it is (a command's description, "folder", a resource's name). */
export interface MenuItem {
  word: string;
  description: string | undefined;
}

/** The completion menu under the prompt: the word being completed, its choices, the one chosen. */
export interface CompletionMenu {
  word: string;
  items: readonly MenuItem[];
  selected: number;
}

/** The word before the cursor the menu completes: a command at the start, or an `@` mention. */
export function menuWord(before: string): string | undefined {
  const word = /\S*$/.exec(before)?.[0] ?? "";
  if (word.startsWith("/") && before.trimStart() === word) return word;
  if (word.startsWith("@")) return word;
  return undefined;
}

/** The word before the cursor, whatever it is. */
export function wordBefore(editor: { text: string; cursor: number }): string {
  return /\S*$/.exec(editor.text.slice(0, editor.cursor))?.[0] ?? "";
}

/**
 * Pure: the menu for `word` over the words that still match it, keeping the choice where it was
 * when that word is still offered; undefined when fewer than one other word remains.
 */
export function openMenu(
  word: string,
  items: readonly MenuItem[],
  matching: readonly string[],
  before: CompletionMenu | undefined,
): CompletionMenu | undefined {
  const offered = items.filter((item) => matching.includes(item.word) && item.word !== word);
  if (offered.length === 0) return undefined;
  const chosen = before?.items[before.selected]?.word;
  const kept = offered.findIndex((item) => item.word === chosen);
  return { word, items: offered, selected: Math.max(0, kept) };
}

/** Words and descriptions can come from servers: cleaned before they are shown or typed in. */
export function cleanItem(item: MenuItem): MenuItem {
  return {
    word: sanitizeForTerminal(item.word),
    description: item.description === undefined ? undefined : sanitizeForTerminal(item.description),
  };
}

/** An index moved past either end comes round from the other. */
export function cycle(index: number, length: number): number {
  return length === 0 ? 0 : ((index % length) + length) % length;
}
