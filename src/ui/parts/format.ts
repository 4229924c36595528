import { revealHiddenText } from "../../core/policy/hidden-text.js";
import { countLines, pluralize } from "../../core/text/index.js";
import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";

/**
 * Arguments in full, as indented JSON (which escapes control characters), the way a person
 * approving them must see them: hidden characters written out (`⟨U+E0041⟩`) rather than
 * dropped, so text that draws as nothing cannot pass unseen.
 */
export function prettyArguments(args: Record<string, unknown> | undefined, raw: string): string {
  return sanitizeForTerminal(revealHiddenText(args ? JSON.stringify(args, null, 2) : raw));
}

export function formatTokens(tokens: number): string {
  return tokens < 1000 ? String(tokens) : `${(tokens / 1000).toFixed(1)}k`;
}

/**
 * What the panel and the inspector show of a result, each part under its heading: the content,
 * then the structured content (the content's heading is left out when only the structure came).
 */
export function resultSections(result: {
  display: string;
  structured?: string | undefined;
  truncated: boolean;
}): Array<{ title: string; text: string }> {
  const { display, structured, truncated } = result;
  const lines = (text: string): string => pluralize(countLines(text), "line");
  return [
    ...(display !== "" || structured === undefined
      ? [{ title: `result (${lines(display)}${truncated ? ", cut for the model" : ""}):`, text: display }]
      : []),
    ...(structured === undefined
      ? []
      : [{ title: `structured content (${lines(structured)}):`, text: structured }]),
  ];
}

/** The first `max` lines of a text, and how many were left out. */
export function headLines(text: string, max: number): { lines: string[]; hidden: number; total: number } {
  // A final line break ends the last line; it does not start one more.
  const all = text.split("\n").slice(0, Math.max(1, countLines(text)));
  return { lines: all.slice(0, max), hidden: Math.max(0, all.length - max), total: all.length };
}

/** Words of a message worth highlighting in knowledge excerpts. */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? [];
  return [...new Set(words)].filter((word) => !STOP_WORDS.has(word));
}

const STOP_WORDS = new Set([
  "the",
  "and",
  "for",
  "with",
  "how",
  "what",
  "that",
  "this",
  "are",
  "does",
  "from",
  "you",
]);

/** Splits text into plain and matched parts for highlighting. */
export function markTerms(text: string, terms: readonly string[]): Array<{ text: string; match: boolean }> {
  if (terms.length === 0) return [{ text, match: false }];
  const escaped = terms.map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(${escaped.join("|")})`, "giu");
  return text
    .split(pattern)
    .filter((part) => part !== "")
    .map((part) => ({ text: part, match: terms.includes(part.toLowerCase()) }));
}
