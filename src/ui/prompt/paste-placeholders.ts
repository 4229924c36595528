import { countLines } from "../../core/text/index.js";

/** A paste this tall or this long goes into the prompt as a placeholder, not line by line. */
export const COLLAPSE_LINES = 10;
export const COLLAPSE_CHARACTERS = 2000;

/** A large paste kept aside, standing in the prompt as its placeholder. */
export interface Paste {
  id: number;
  text: string;
}

export function isLargePaste(text: string): boolean {
  return text.length > COLLAPSE_CHARACTERS || countLines(text) > COLLAPSE_LINES;
}

/** What stands in the prompt for a large paste: `[Pasted text #1 +400 lines]`. */
export function placeholder(paste: Paste): string {
  const lines = countLines(paste.text);
  return lines > 1
    ? `[Pasted text #${paste.id} +${lines} lines]`
    : `[Pasted text #${paste.id} ${paste.text.length} characters]`;
}

/** The text with each placeholder still written as it was replaced by its paste. */
export function expandPastes(text: string, pastes: readonly Paste[]): string {
  let expanded = text;
  for (const paste of pastes) expanded = expanded.split(placeholder(paste)).join(paste.text);
  return expanded;
}
