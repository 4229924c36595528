import { sanitizeForTerminal } from "./sanitize-terminal.js";
import { groupedNumber } from "../text/grouped-number.js";

/**
 * Most of a tool description the model is sent. Legitimate descriptions run to about 3 KB; a
 * longer one is where a poisoned server hides instructions behind padding.
 */
export const MAX_DESCRIPTION_CHARS = 4_000;

/** Text kept past a cut while redacting, so a secret across the cut is still seen whole. */
export const REDACT_MARGIN = 256;

export interface ModelDescription {
  /** What the model is sent: invisible and BiDi characters and escapes removed, capped. */
  text: string;
  /** What was done to it, in words, for /tools and the approval panel; empty when nothing was. */
  notes: string[];
}

/**
 * A server's tool description as the model may read it, with a note for each change made. A
 * secret in it (a server that echoes its environment) is redacted: the model is a way out.
 */
export function descriptionForModel(
  description: string,
  redact: (text: string) => string = (text) => text,
): ModelDescription {
  const notes: string[] = [];
  // The terminal sanitizer drops exactly what can hide text from a person reading it.
  const sanitized = sanitizeForTerminal(description);
  if (sanitized.length !== description.length) {
    notes.push(
      `${description.length - sanitized.length} invisible or control characters removed from its description`,
    );
  }
  // Cut (with room for a secret straddling the cut) before redacting: the rules cost time in
  // proportion to the text, and a 50 KB description is what an attacker would send.
  const kept = sanitized.slice(0, MAX_DESCRIPTION_CHARS + REDACT_MARGIN);
  const visible = redact(kept);
  if (visible !== kept) notes.push("secrets removed from its description");
  if (sanitized.length <= MAX_DESCRIPTION_CHARS) return { text: visible, notes };
  notes.push(
    `its description was cut from ${groupedNumber(sanitized.length)} to ${groupedNumber(MAX_DESCRIPTION_CHARS)} characters before the model saw it`,
  );
  return { text: `${visible.slice(0, MAX_DESCRIPTION_CHARS)}… [description cut]`, notes };
}
