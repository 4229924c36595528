import { tokenize } from "./tokenizer.js";

/**
 * Everyday words that are indexed and ranked but tell nothing about whether a passage answers a
 * message: in a small knowledge base "one" or "thing" can be rare, so their rarity there would
 * make "ok, one more thing" look like a question about deploy-runbook.md. They weigh nothing in
 * the relevance floor (relevance.ts). Chat words, tool-call words and the commonest English verbs,
 * nouns and numbers; stemmed with the index's own tokenizer so both sides agree. Sizes and
 * amounts ("many", "high", "low") are left out: in technical notes they are the subject.
 */
const WORDS = `
  hi hello hey thanks thank ok okay yes yeah sure great cool nice good bad fine right wrong sorry
  one two three four five first second last next new old same different another thing things stuff
  something anything everything nothing way lot bit kind sort time times day today tomorrow yesterday
  week now later soon ago again always never often sometimes really actually maybe perhaps just like
  want need know think see look make made take give go come say said ask use used using try work works
  let put keep call run show find help start stop tell read write open close name names text value
  true false null undefined json argument arguments param params tool tools result results id ids
  thing person people man woman way world life year years part place case point number group fact
`;

export const COMMON_TERMS: ReadonlySet<string> = new Set(tokenize(WORDS));
