import { truncateEnd } from "./display-width.js";

/**
 * One-line previews of longer text, fitted by display width. They do not sanitize: text from a
 * model or a tool goes through `sanitizeForTerminal` before it is printed.
 */

/** `text` with its whitespace (newlines included) collapsed to single spaces, cut to `maxWidth`. */
export function oneLine(text: string, maxWidth: number): string {
  return truncateEnd(text.replace(/\s+/g, " ").trim(), maxWidth);
}

/** The first line of `text` that is not blank, trimmed and cut to `maxWidth` (a whole line without it). */
export function firstLine(text: string, maxWidth = Number.POSITIVE_INFINITY): string {
  const line = (text.split("\n").find((candidate) => candidate.trim() !== "") ?? "").trim();
  return Number.isFinite(maxWidth) ? truncateEnd(line, maxWidth) : line;
}

/**
 * A tool call's arguments on one line, `{"path":"a.md","text":"hello…"}`: compact JSON when they
 * parsed, else the raw text the model sent, so both read alike. Cut to `maxWidth`.
 */
export function summarizeArguments(
  args: Record<string, unknown> | undefined,
  raw: string,
  maxWidth: number,
): string {
  return oneLine(args === undefined ? raw : JSON.stringify(args), maxWidth);
}
