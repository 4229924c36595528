import { tokenize } from "../kb/tokenizer.js";

/** Query words (as indexed: stemmed, split) with how much each counts. */
export type WeightedTerms = Map<string, number>;

/** A text the query is made of, with how much its words count. */
export interface QueryPart {
  text: string;
  weight: number;
}

/** A word's weight never passes this however many parts hold it, so a repeated word cannot swamp the rest. */
const MAX_TERM_WEIGHT = 1.5;

/**
 * The words of several texts, each counted once per text at that text's weight. Everyday words
 * keep their weight: the index's idf already makes them cheap, and a list of chat words would
 * silence real subjects ("news" stems to "new").
 */
export function weightedTerms(parts: readonly QueryPart[]): WeightedTerms {
  const terms: WeightedTerms = new Map();
  for (const { text, weight } of parts) {
    if (weight <= 0) continue;
    for (const term of new Set(tokenize(text))) {
      terms.set(term, Math.min(MAX_TERM_WEIGHT, (terms.get(term) ?? 0) + weight));
    }
  }
  return terms;
}
