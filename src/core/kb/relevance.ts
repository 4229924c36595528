import { COMMON_TERMS } from "./common-words.js";
import { isCjkTerm, tokenize } from "./tokenizer.js";

/**
 * The relevance floor: a passage is shown (and given to the model) only when the words of the
 * message it holds carry at least this share of the message's weight (coverage), or, for long
 * questions where no passage holds much of it, two or more of its words carry EVIDENCE_FLOOR.
 * Calibrated with bench/kb-eval.ts: at 0.3 three Chinese questions whose passage holds only
 * one name lost it; at 0.25 no collection loses nDCG@10 or Recall@10. README: "Relevance".
 */
export const RELEVANCE_FLOOR = 0.25;
/** The other way past the floor, for long questions: this much evidence from two or more words. */
export const EVIDENCE_FLOOR = 0.4;
/**
 * The share of the message a passage must still hold on that other way: a pasted release note's
 * few rare words in a passage were evidence enough, and it was shown at 3 %. bench/kb-eval.ts:
 * 0.05 loses nothing; 0.07 costs cisi 0.001 of Recall@10, 0.1 0.006 of nDCG@10.
 */
export const EVIDENCE_MIN_COVERAGE = 0.05;

/** Whether a passage is relevant enough to show: see RELEVANCE_FLOOR, EVIDENCE_FLOOR and EVIDENCE_MIN_COVERAGE. */
export function passesFloor(
  measured: { coverage: number; evidence: number; informativeTerms: number },
  minCoverage: number = RELEVANCE_FLOOR,
): boolean {
  if (minCoverage <= 0) return true;
  return (
    measured.coverage >= minCoverage ||
    (measured.informativeTerms >= 2 &&
      measured.evidence >= EVIDENCE_FLOOR &&
      measured.coverage >= EVIDENCE_MIN_COVERAGE)
  );
}

/** The words of the message a passage holds that carry weight (not common words). */
export function informativeTerms(
  matchedTerms: readonly string[],
  weights: ReadonlyMap<string, number>,
): number {
  let count = 0;
  for (const term of new Set(matchedTerms)) if ((weights.get(term) ?? 0) > 0) count++;
  return count;
}

/** One match as the keyword index reports it: which of the query's terms the passage contains. */
export interface TermMatch {
  queryTerms: readonly string[];
}

/**
 * Inverse document frequency of each query term, with the document frequencies counted in the
 * matches themselves (every passage holding a term is among them). A term no passage holds gets
 * the largest weight: a message about something the knowledge base never mentions is not about it.
 */
export function termWeights(
  queryTerms: readonly string[],
  matches: readonly TermMatch[],
  documentCount: number,
): Map<string, number> {
  const frequency = new Map<string, number>(queryTerms.map((term) => [term, 0]));
  for (const match of matches) {
    for (const term of new Set(match.queryTerms)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  const weights = new Map<string, number>();
  const n = Math.max(documentCount, 1);
  for (const [term, df] of frequency) {
    const weight = COMMON_TERMS.has(term) ? 0 : Math.log(1 + (n - Math.min(df, n) + 0.5) / (df + 0.5));
    weights.set(term, weight);
  }
  return weights;
}

/**
 * The share (0..1) of the query's weight a passage holds: 1 when it contains every informative
 * word of the message, near 0 when it shares only a common one. It is what the score shown to a
 * person means, "relative to the best possible", and what the floor is measured on.
 */
export function coverage(matchedTerms: readonly string[], weights: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const weight of weights.values()) total += weight;
  if (total <= 0) return 0;
  let held = 0;
  for (const term of new Set(matchedTerms)) held += weights.get(term) ?? 0;
  return Math.min(1, held / total);
}

/**
 * The words of the message, as typed, that a passage matched ("Deploying" for the term
 * "deploi"); for Chinese and Japanese, the matched words and bigrams themselves. Common words
 * ("call", "tool") are left out: they weigh nothing, so they are not why the passage was found.
 */
export function matchedWords(query: string, matchedTerms: readonly string[]): string[] {
  const matched = new Set(matchedTerms.filter((term) => !COMMON_TERMS.has(term)));
  const words: string[] = [];
  const typed = [...query.normalize("NFKC").matchAll(/[\p{L}\p{N}_]+/gu)].map(([word]) => word);
  typed.forEach((word, index) => {
    const terms = tokenize(word);
    if (terms.some(isCjkTerm)) {
      for (const term of terms) if (matched.has(term) && !words.includes(term)) words.push(term);
    } else if (terms.some((term) => matched.has(term)) && !words.includes(word)) {
      words.push(word);
    } else {
      // A split compound the search joined (split-compounds.ts): "roll back" for "rollback".
      const next = typed[index + 1];
      const pair = next === undefined ? undefined : `${word} ${next}`;
      const joined = next === undefined ? [] : [...tokenize(word), ...tokenize(next)];
      if (pair && joined.length === 2 && matched.has(joined.join("")) && !words.includes(pair))
        words.push(pair);
    }
  });
  return words;
}

/**
 * How much a passage's matched terms tell, in units of one term that no other passage holds:
 * a passage sharing only "one" or "thing" with the message scores near 0 however much of a
 * short message that is; one that holds a rare word of it, or many ordinary ones, scores 1 or more.
 */
export function evidence(
  matchedTerms: readonly string[],
  weights: ReadonlyMap<string, number>,
  documentCount: number,
): number {
  const unique = Math.log(1 + (Math.max(documentCount, 1) + 0.5) / 0.5);
  let held = 0;
  for (const term of new Set(matchedTerms)) held += weights.get(term) ?? 0;
  return held / unique;
}

/** A relevance as a person reads it: "strong 82%", "good 55%", "weak 31%". */
export function describeRelevance(value: number): string {
  const relevance = Number.isFinite(value) ? Math.max(0, Math.min(1, value)) : 0;
  const percent = Math.round(relevance * 100);
  const label = relevance >= 0.7 ? "strong" : relevance >= 0.45 ? "good" : "weak";
  return `${label} ${percent}%`;
}
