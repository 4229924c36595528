import { isCjkTerm, tokenize } from "../kb/tokenizer.js";
import { FIELDS, toolDocument, type Field, type SearchableTool } from "./tool-document.js";
import type { WeightedTerms } from "./weighted-query.js";

/**
 * How much a word counts in each field (BM25F). A tool's name says what it does in a word or
 * two, a title a little more; a description says it in a sentence; parameter names and the
 * server's instructions say what it works on. Tuned with bench/tool-search-eval.ts.
 */
export const FIELD_WEIGHTS: Record<Field, number> = {
  name: 3,
  title: 2,
  description: 1,
  parameters: 0.5,
  server: 0.5,
};

/** Length normalization per field: a long description should not win by being long. */
const FIELD_B: Record<Field, number> = {
  name: 0.3,
  title: 0.3,
  description: 0.75,
  parameters: 0.75,
  server: 0.75,
};
const K1 = 1.2;
/**
 * A word that shares its start with a tool's word ("financial" and "finance", "booking" and
 * "book" after stemming) counts this much of an exact match: stemming leaves such pairs apart.
 */
const NEAR_MATCH_WEIGHT = 0.5;
/** The shortest shared start that makes two words near: shorter ones join unrelated words. */
const NEAR_PREFIX = 4;
/** How many letters the longer word may have beyond the shorter one and still be near. */
const NEAR_EXTRA = 4;

export interface RankedTool<T extends SearchableTool = SearchableTool> {
  tool: T;
  score: number;
  /** The query's words this tool matched, as indexed (stemmed). */
  matched: string[];
}

interface Posting {
  doc: number;
  /** The word's weighted, length-normalized frequency over the fields (BM25F's pseudo-frequency). */
  frequency: number;
}

/**
 * A keyword index over a set of tools: each tool is one document of five fields (tool-document.ts),
 * words are made by the knowledge base's tokenizer (identifiers split, stemmed, CJK segmented),
 * and scored by BM25F. Built once per tool list; ranking is pure.
 */
export class ToolIndex<T extends SearchableTool = SearchableTool> {
  private readonly postings = new Map<string, Posting[]>();
  /** Indexed words by their first NEAR_PREFIX letters, to find near words without a scan. */
  private readonly byPrefix = new Map<string, string[]>();

  constructor(
    readonly tools: readonly T[],
    instructions: (server: string) => string = () => "",
  ) {
    const lengths = tools.map(() => new Map<Field, number>());
    const counts = tools.map(() => new Map<string, Map<Field, number>>());
    tools.forEach((tool, doc) => {
      const document = toolDocument(tool, instructions(tool.server));
      for (const field of FIELDS) {
        // Each word once per field, and a field as long as its distinct words: a description
        // that repeats or lists words to match every request gains nothing by it.
        const terms = new Set(tokenize(document[field]));
        lengths[doc]?.set(field, terms.size);
        for (const term of terms) {
          const byField = counts[doc]?.get(term) ?? new Map<Field, number>();
          byField.set(field, 1);
          counts[doc]?.set(term, byField);
        }
      }
    });
    const average = new Map<Field, number>(
      FIELDS.map((field) => [
        field,
        lengths.reduce((sum, byField) => sum + (byField.get(field) ?? 0), 0) / Math.max(1, tools.length),
      ]),
    );
    counts.forEach((terms, doc) => {
      for (const [term, byField] of terms) {
        let frequency = 0;
        for (const [field, count] of byField) {
          const relative = (lengths[doc]?.get(field) ?? 0) / Math.max(1, average.get(field) ?? 1);
          frequency += (FIELD_WEIGHTS[field] * count) / (1 - FIELD_B[field] + FIELD_B[field] * relative);
        }
        const list = this.postings.get(term) ?? [];
        if (list.length === 0) {
          this.postings.set(term, list);
          if (!isCjkTerm(term) && term.length >= NEAR_PREFIX) {
            const prefix = term.slice(0, NEAR_PREFIX);
            this.byPrefix.set(prefix, [...(this.byPrefix.get(prefix) ?? []), term]);
          }
        }
        list.push({ doc, frequency });
      }
    });
  }

  get size(): number {
    return this.tools.length;
  }

  /** Whether any tool holds this word (as indexed). */
  has(term: string): boolean {
    return this.postings.has(term);
  }

  /** Rarer words weigh more (BM25's idf); a word no tool holds weighs nothing. */
  idf(term: string): number {
    const df = this.postings.get(term)?.length ?? 0;
    if (df === 0) return 0;
    return Math.log(1 + (this.tools.length - df + 0.5) / (df + 0.5));
  }

  /** Every tool that matched at least one word, best first; ties keep the tools' order. */
  rank(query: WeightedTerms): Array<RankedTool<T>> {
    const scores = new Map<number, { score: number; matched: Set<string> }>();
    for (const [term, weight] of query) {
      for (const [indexed, share] of this.matchesOf(term)) {
        const idf = this.idf(indexed);
        for (const { doc, frequency } of this.postings.get(indexed) ?? []) {
          const entry = scores.get(doc) ?? { score: 0, matched: new Set<string>() };
          entry.score += (weight * share * idf * frequency * (K1 + 1)) / (frequency + K1);
          entry.matched.add(term);
          scores.set(doc, entry);
        }
      }
    }
    return [...scores.entries()]
      .sort(([docA, a], [docB, b]) => b.score - a.score || docA - docB)
      .flatMap(([doc, entry]) => {
        const tool = this.tools[doc];
        return tool ? [{ tool, score: entry.score, matched: [...entry.matched] }] : [];
      });
  }

  /** The indexed words a query word matches, with how much each counts: itself, then near ones. */
  private matchesOf(term: string): Array<[string, number]> {
    const matches: Array<[string, number]> = this.postings.has(term) ? [[term, 1]] : [];
    if (isCjkTerm(term) || term.length < NEAR_PREFIX) return matches;
    for (const other of this.byPrefix.get(term.slice(0, NEAR_PREFIX)) ?? []) {
      if (other !== term && areNear(term, other)) matches.push([other, NEAR_MATCH_WEIGHT]);
    }
    return matches;
  }
}

/** One word starts with the other, and is only a few letters longer. */
function areNear(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return long.startsWith(short) && long.length - short.length <= NEAR_EXTRA;
}
