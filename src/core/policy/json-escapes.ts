import { HIDDEN_CHARACTERS } from "./hidden-text.js";

/**
 * JSON text with every character that could hide text or drive a terminal (those hidden-text.ts
 * knows, DEL and the C1 controls; JSON.stringify already escapes C0) written as a `\uXXXX`
 * escape. It parses back to exactly the same value, so a file of it can be printed, edited and
 * read again without losing a character, and without a BiDi override reordering what is shown.
 */
export function escapeInvisible(json: string): string {
  return json.replace(HIDDEN_CHARACTERS, escapeUnits).replace(/[\u007f-\u009f]/g, escapeUnits);
}

function escapeUnits(text: string): string {
  let escaped = "";
  for (let index = 0; index < text.length; index += 1)
    escaped += `\\u${text.charCodeAt(index).toString(16).padStart(4, "0")}`;
  return escaped;
}

/** Printable ASCII and line breaks, which JSON lines are mostly made of: nothing to escape in them. */
const PLAIN = /^[\n -~]*$/;

/**
 * escapeInvisible for the lines of a file mcpterm keeps (a trace, a saved session), which a
 * person may `cat` or `tail -f`: most are plain ASCII, and are given back at the cost of one test.
 */
export function fileSafeJson(lines: string): string {
  return PLAIN.test(lines) ? lines : escapeInvisible(lines);
}
