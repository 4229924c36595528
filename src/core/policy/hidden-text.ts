/**
 * Letters and marks of the scripts that need zero-width joiners to be written right (Arabic
 * and Persian, the Indic scripts, Sinhala, …): every letter but the Latin, Greek, Cyrillic and
 * Han ones, where a joiner changes nothing a reader sees.
 */
const JOINING_SCRIPT = String.raw`[[\p{L}\p{M}]--[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Han}]]`;
/** What an emoji sequence's joiner follows: a pictograph, with its presentation or skin tone. */
const EMOJI_BEFORE = String.raw`\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?`;

/**
 * Characters that draw as nothing yet carry text, as one list used to flag, reveal and strip
 * them: every Unicode format character (category Cf: zero-width spaces and joiners, BiDi
 * embeddings, overrides and isolates, tag characters that spell ASCII invisibly, invisible
 * operators, interlinear annotation and shorthand format controls) and every character Unicode
 * calls default-ignorable (variation selectors other than the emoji one, used to smuggle bytes;
 * the combining grapheme joiner; Hangul fillers; Khmer and Mongolian invisible vowels and
 * selectors; unassigned points kept for such use), and the blank Braille pattern. A zero-width
 * joiner inside an emoji sequence (👩‍💻), and a joiner in a script that needs one (Persian
 * می‌خواهم, Devanagari क्‍ष), are the exceptions: there they draw, as part of the text.
 */
export const HIDDEN_CHARACTERS = new RegExp(
  // A joiner (U+200C, U+200D) draws as part of the text after a letter of a joining script or
  // inside an emoji; anywhere else, or two in a row, it only carries hidden bits.
  // eslint-disable-next-line no-misleading-character-class -- selectors and skin tones listed one by one, on purpose.
  String.raw`(?<!${JOINING_SCRIPT}|${EMOJI_BEFORE})[\u200C\u200D]|[\u200C\u200D](?=[\u200C\u200D])|` +
    String.raw`(?<=${EMOJI_BEFORE})[\u200C\u200D](?!\p{Extended_Pictographic})|` +
    // The v flag's set difference: every default-ignorable or format character and the blank
    // Braille pattern, but the joiners (decided just above) and the emoji presentation selector.
    String.raw`[[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]--[\u200C\u200D\uFE0F]]`,
  "gv",
);

/** Whether `text` holds any character that draws as nothing but carries content. */
export function hasHiddenText(text: string): boolean {
  HIDDEN_CHARACTERS.lastIndex = 0;
  return HIDDEN_CHARACTERS.test(text);
}

/**
 * Every character HIDDEN_CHARACTERS may match, and the joiners it may not: one plain class, read
 * about 17 times faster than HIDDEN_CHARACTERS' look-arounds, to pass over the many texts that
 * hold none (withoutHiddenText).
 */
const MAY_HIDE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]/u;

/** `text` with every hidden character left out (a key split by a zero-width space made whole). */
export function withoutHiddenText(text: string): string {
  return MAY_HIDE.test(text) ? text.replace(HIDDEN_CHARACTERS, "") : text;
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

const HIDDEN_RUN = new RegExp(`(?:${HIDDEN_CHARACTERS.source})+`, "gv");

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
