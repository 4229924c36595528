/**
 * Characters that draw as nothing yet carry text: Unicode tag characters (which spell ASCII
 * invisibly), variation selectors beyond the emoji one (used to smuggle bytes), zero-width
 * spaces and joiners-that-are-not, BiDi embeddings, overrides and isolates, and fillers that
 * look blank. Text holding them can show a person something other than what it says.
 */
export const HIDDEN_CHARACTERS =
  // eslint-disable-next-line no-misleading-character-class -- the variation selectors in it are what it finds, not a combined character.
  /\u115f|\u1160|[\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufe00-\ufe0e\ufeff\uffa0]|\udb40[\udc00-\udc7f\udd00-\uddef]/g;

/** Whether `text` holds any character that draws as nothing but carries content. */
export function hasHiddenText(text: string): boolean {
  HIDDEN_CHARACTERS.lastIndex = 0;
  return HIDDEN_CHARACTERS.test(text);
}

/**
 * The text as a reader should be shown it: each hidden character written out as `⟨U+E0041⟩`, so
 * nothing in it can pass unseen.
 */
export function revealHiddenText(text: string): string {
  return text.replace(HIDDEN_CHARACTERS, (character) => {
    const point = character.codePointAt(0) ?? 0;
    return `⟨U+${point.toString(16).toUpperCase().padStart(4, "0")}⟩`;
  });
}

const HIDDEN_RUN = new RegExp(`(?:${HIDDEN_CHARACTERS.source})+`, "g");

/**
 * The text with what its tag characters spell (U+E0020–U+E007E are ASCII in disguise) written
 * in place and the other hidden characters removed. Each hidden run stands apart, between
 * spaces, so a secret spelled in it is found by rules that look for a word's start.
 */
export function decodeHiddenText(text: string): string {
  return text.replace(HIDDEN_RUN, (run) => {
    const spelled = Array.from(run, (character) => {
      const point = character.codePointAt(0) ?? 0;
      return point >= 0xe0020 && point <= 0xe007e ? String.fromCharCode(point - 0xe0000) : "";
    }).join("");
    return spelled ? ` ${spelled} ` : "";
  });
}
