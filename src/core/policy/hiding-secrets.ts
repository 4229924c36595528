import { decodeHiddenText } from "./hidden-text.js";
import { sanitizeForTerminal } from "./sanitize-terminal.js";
import type { TextRedaction } from "./secret-patterns.js";

/** Printable ASCII, tabs and line breaks: nothing in it can hide a character from the rules. */
const PLAIN = /^[\t\n\u0020-\u007e]*$/;

/**
 * Beyond what a terminal is spared: every joiner, the grapheme joiner and variation selectors
 * wherever they stand (one beside a mark or after a letter of a joining script is kept on screen,
 * yet splits a key just the same), and marks on ASCII characters, which draw as little among a
 * key's letters as nothing does.
 */
// eslint-disable-next-line no-misleading-character-class -- joiners, selectors and marks listed one by one, on purpose.
const SPLITTERS = /[\u200C\u200D\u034F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]|(?<=[\u0020-\u007e])\p{M}+/gu;

/** The tag characters that stand for printable ASCII (U+E0020-U+E007E). */
const TAG_CHARACTERS = /[\u{E0020}-\u{E007E}]/gu;

function spellTag(tag: string): string {
  return String.fromCharCode((tag.codePointAt(0) ?? 0xe0020) - 0xe0000);
}

/**
 * A secret split by what draws as nothing (`sk-pr⟨U+200B⟩oj-…`, a soft hyphen, a BiDi mark, a
 * tag character, a joiner), by a control or by an escape sequence passes rules that read the
 * text as it is, and comes out whole where those are taken out: on a terminal and in what the
 * model is handed; one spelled in tag characters is ASCII in disguise, which a model reads. So a
 * text holding any is read again in those forms (bareForms); where the rules find a secret in
 * one, the text is given in that form, redacted, and what hid the secret goes with it (the trace
 * and `--json` keep such characters otherwise). `direct` is what reading the text as it is gave.
 */
export function throughHiding(direct: TextRedaction, redact: (bare: string) => TextRedaction): TextRedaction {
  for (const form of bareForms(direct.text)) {
    const again = redact(form);
    if (again.rules.length > 0) return joined(direct, again);
  }
  return direct;
}

/** throughHiding for the rules that answer later (secretlint's preset). */
export async function throughHidingAsync(
  direct: TextRedaction,
  redact: (bare: string) => Promise<TextRedaction>,
): Promise<TextRedaction> {
  for (const form of bareForms(direct.text)) {
    const again = await redact(form);
    if (again.rules.length > 0) return joined(direct, again);
  }
  return direct;
}

function joined(direct: TextRedaction, again: TextRedaction): TextRedaction {
  return { text: again.text, rules: [...direct.rules, ...again.rules] };
}

/**
 * The forms a reader is left with once what hides is gone: with it taken out (sanitizeForTerminal,
 * SPLITTERS), with what tag characters spell written out apart (decodeHiddenText), and spelled
 * where they stand; none that is the text itself, and none for plain ASCII.
 */
export function bareForms(text: string): string[] {
  if (PLAIN.test(text)) return [];
  const stripped = sanitizeForTerminal(text).replace(SPLITTERS, "");
  const spelled = sanitizeForTerminal(decodeHiddenText(text)).replace(SPLITTERS, "");
  // Spelled where they stand, with nothing around them: `sk-proj-` and the rest of a key in tags.
  const inPlace = sanitizeForTerminal(text.replace(TAG_CHARACTERS, spellTag)).replace(SPLITTERS, "");
  return [...new Set([stripped, spelled, inPlace])].filter((form) => form !== text);
}
