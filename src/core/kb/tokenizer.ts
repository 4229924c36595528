import { stemmer } from "stemmer";
import { CJK_STOP_WORDS, ENGLISH_STOP_WORDS } from "./stop-words.js";

/** Runs of Chinese/Japanese script; everything else is split into words by the word pattern. */
const CJK_RUN = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\u3005]+)/u;
const WORD = /[\p{L}\p{N}_]+/gu;
const APOSTROPHE_S = /['\u2019]s\b/gu;
const APOSTROPHE = /['\u2019]/gu;
const MARKS = /\p{M}+/gu;
const ASCII_LETTERS = /^[a-z]+$/;
const DIGITS = /^\p{N}+$/u;
/** Longer "words" are hashes, base64 or minified code: they only bloat the index. */
const MAX_TERM_LENGTH = 40;

/**
 * Made at the first Chinese or Japanese text, not at import: building it loads ICU's word
 * dictionary, 60-150 ms measured at load 20, which every start that imports the tokenizer (tool
 * search does, for `-p`) paid before its first request, whatever language it was asked in.
 */
let cjkSegmenter: Intl.Segmenter | undefined;

/**
 * Splits text into index terms; the same function serves indexing and querying so that both
 * sides agree. English words are case-folded, accent-folded, stop-worded and Porter-stemmed;
 * identifiers also yield their parts (readOnlyHint -> readonlyhint, read, only, hint). Chinese
 * and Japanese runs are segmented with Intl.Segmenter and indexed as character bigrams, which
 * also catch the words its dictionary splits or misses.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  const parts = text.normalize("NFKC").split(CJK_RUN);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === undefined || part === "") continue;
    if (i % 2 === 1) addCjkTerms(part, terms);
    else addWordTerms(part, terms);
  }
  return terms;
}

function addWordTerms(text: string, terms: string[]): void {
  const cleaned = text.replace(APOSTROPHE_S, "").replace(APOSTROPHE, "");
  for (const match of cleaned.matchAll(WORD)) {
    const word = match[0];
    const pieces = splitIdentifier(word);
    if (pieces.length > 1) {
      const whole = foldWord(word.replace(/_/g, ""));
      if (whole.length <= MAX_TERM_LENGTH) terms.push(whole);
    }
    for (const piece of pieces) {
      const term = englishTerm(piece);
      if (term !== undefined) terms.push(term);
    }
  }
}

/** snake_case and camelCase identifiers into their words; plain words come back whole. */
function splitIdentifier(word: string): string[] {
  return word
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1_$2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1_$2")
    .split("_")
    .filter((piece) => piece !== "");
}

function foldWord(word: string): string {
  return word.toLowerCase().normalize("NFD").replace(MARKS, "");
}

function englishTerm(piece: string): string | undefined {
  const word = foldWord(piece);
  if (word.length > MAX_TERM_LENGTH || ENGLISH_STOP_WORDS.has(word)) return undefined;
  if (word.length === 1 && !DIGITS.test(word)) return undefined;
  return ASCII_LETTERS.test(word) ? stemmer(word) : word;
}

/**
 * Words the segmenter knows are kept whole (longer ones also as bigrams, so part of a compound
 * still matches). Runs of single characters, where its dictionary had no word, become character
 * bigrams, so that a word it split apart ("调|试") matches as a whole.
 */
function addCjkTerms(run: string, terms: string[]): void {
  let singles = "";
  cjkSegmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  for (const segment of cjkSegmenter.segment(run)) {
    const word = segment.segment;
    const length = Array.from(word).length;
    if (segment.isWordLike === true && length === 1 && !CJK_STOP_WORDS.has(word)) {
      singles += word;
      continue;
    }
    addBigrams(singles, terms);
    singles = "";
    if (segment.isWordLike !== true || CJK_STOP_WORDS.has(word)) continue;
    terms.push(word);
    if (length > 2) addBigrams(word, terms);
  }
  addBigrams(singles, terms);
}

function addBigrams(span: string, terms: string[]): void {
  const chars = Array.from(span);
  if (chars.length === 1) terms.push(span);
  for (let i = 0; i + 1 < chars.length; i++) terms.push(`${chars[i] ?? ""}${chars[i + 1] ?? ""}`);
}

/** True for a term made of Chinese/Japanese script, where edit-distance matching makes no sense. */
export function isCjkTerm(term: string): boolean {
  return CJK_RUN.test(term);
}
