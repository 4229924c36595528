import { isCjkTerm, tokenize } from "../kb/tokenizer.js";
import { FIELDS, toolDocument, type Field, type SearchableTool } from "./tool-document.js";
import type { WeightedTerms, WrittenWords } from "./weighted-query.js";

/**
 * How much a word counts in each field (BM25F). A tool's name says what it does in a word or
 * two, a title a little more; a description says it in a sentence; parameter names, the
 * server's name and its instructions say what it works on. Tuned with bench/tool-search-eval.ts.
 */
export const FIELD_WEIGHTS: Record<Field, number> = {
  name: 3,
  title: 2,
  description: 1,
  parameters: 0.5,
  server: 0.5,
  instructions: 0.5,
};

/**
 * Length normalization per field, in distinct words against the field's typical length
 * (typicalLength): a field that holds many words says less about each of them.
 */
const FIELD_B: Record<Field, number> = {
  name: 0.3,
  title: 0.3,
  description: 0.75,
  parameters: 0.75,
  server: 0.75,
  instructions: 0.75,
};
/**
 * The most distinct words a field is taken to hold as a rule, however long the catalog's are, so
 * a catalog where only a stuffed tool has instructions or a title cannot make its list the norm.
 */
const TYPICAL_MAX: Record<Field, number> = {
  name: 4,
  title: 6,
  description: 40,
  parameters: 30,
  server: 4,
  instructions: 20,
};
/** The most distinct words of a name and of a title that are searched: each says what a tool does in a few. */
const FIELD_WORDS: Partial<Record<Field, number>> = { name: 6, title: 6 };
/**
 * A field counts only while a word in it weighs at least this much after length normalization,
 * a quarter of a word in a field of typical length: a description, parameters or instructions
 * text over five times the typical length (a title or name over eleven times) matches nothing.
 * Counting each word once per field stops a tool from winning by repeating words, not by listing
 * many; this stops a field stuffed with every word a request might use from matching request
 * after request it has nothing to do with.
 */
const MIN_NORMALIZED = 0.25;
const K1 = 1.2;
/**
 * A word that shares its start with a tool's word ("financial" and "finance", "booking" and
 * "book" after stemming) counts this much of an exact match: stemming leaves such pairs apart.
 */
const NEAR_MATCH_WEIGHT = 0.5;
/** The shortest shared start that makes two words near: shorter ones join unrelated words. */
const NEAR_PREFIX = 4;
/**
 * As short a written word as may find near ones, when its stem changed how it begins ("pay" for
 * "payment"); a plain three-letter stem ("add", "log") would meet "address" and "login".
 */
const NEAR_WRITTEN = 3;
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
 * A keyword index over a set of tools: each tool is one document of six fields (tool-document.ts),
 * words are made by the knowledge base's tokenizer (identifiers split, stemmed, CJK segmented),
 * and scored by BM25F. Built once per tool list; ranking is pure.
 */
export class ToolIndex<T extends SearchableTool = SearchableTool> {
  private readonly postings = new Map<string, Posting[]>();
  /** Indexed words by their first NEAR_WRITTEN letters, to find near words without a scan. */
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
        // that repeats words gains nothing by it, and one that lists them dilutes each.
        const terms = new Set([...new Set(tokenize(document[field]))].slice(0, FIELD_WORDS[field]));
        lengths[doc]?.set(field, terms.size);
        for (const term of terms) {
          const byField = counts[doc]?.get(term) ?? new Map<Field, number>();
          byField.set(field, 1);
          counts[doc]?.set(term, byField);
        }
      }
    });
    const typical = new Map<Field, number>(
      FIELDS.map((field) => [
        field,
        typicalLength(
          lengths.map((byField) => byField.get(field) ?? 0),
          field,
        ),
      ]),
    );
    counts.forEach((terms, doc) => {
      for (const [term, byField] of terms) {
        let frequency = 0;
        for (const [field, count] of byField) {
          const relative = (lengths[doc]?.get(field) ?? 0) / (typical.get(field) ?? 1);
          const normalized = count / (1 - FIELD_B[field] + FIELD_B[field] * relative);
          if (normalized >= MIN_NORMALIZED) frequency += FIELD_WEIGHTS[field] * normalized;
        }
        if (frequency === 0) continue;
        const list = this.postings.get(term) ?? [];
        if (list.length === 0) {
          this.postings.set(term, list);
          if (!isCjkTerm(term) && term.length >= NEAR_WRITTEN) {
            const prefix = term.slice(0, NEAR_WRITTEN);
            this.byPrefix.set(prefix, [...(this.byPrefix.get(prefix) ?? []), term]);
          }
        }
        list.push({ doc, frequency });
      }
    });
  }

  /** Rarer words weigh more (BM25's idf); a word no tool holds weighs nothing. */
  idf(term: string): number {
    const df = this.postings.get(term)?.length ?? 0;
    if (df === 0) return 0;
    return Math.log(1 + (this.tools.length - df + 0.5) / (df + 0.5));
  }

  /**
   * Every tool that matched at least one word, best first; ties keep the tools' order. `written`
   * (weighted-query.ts) lets a word whose stem changed its start find near words by what was written.
   */
  rank(query: WeightedTerms, written: WrittenWords = new Map()): Array<RankedTool<T>> {
    const scores = new Map<number, { score: number; matched: Set<string> }>();
    for (const [term, weight] of query) {
      for (const [indexed, share] of this.matchesOf(term, written.get(term))) {
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
  private matchesOf(term: string, written: ReadonlySet<string> = new Set()): Map<string, number> {
    const matches = new Map<string, number>(this.postings.has(term) ? [[term, 1]] : []);
    if (isCjkTerm(term)) return matches;
    const starts = [...(term.length >= NEAR_PREFIX ? [term] : []), ...written];
    for (const start of starts) {
      for (const other of this.byPrefix.get(start.slice(0, NEAR_WRITTEN)) ?? []) {
        if (!matches.has(other) && areNear(start, other)) matches.set(other, NEAR_MATCH_WEIGHT);
      }
    }
    return matches;
  }
}

/** One word starts with the other, and is only a few letters longer. */
function areNear(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return long.startsWith(short) && long.length - short.length <= NEAR_EXTRA;
}

/**
 * The length a field is normalized against: the median over the tools that have the field (the
 * median, so a few stuffed tools cannot make the rest look short; of those that have it, so a
 * catalog where few tools document their parameters does not make those few look long), at most
 * TYPICAL_MAX.
 */
function typicalLength(lengths: readonly number[], field: Field): number {
  const present = lengths.filter((length) => length > 0).sort((a, b) => a - b);
  const middle = Math.floor(present.length / 2);
  const median =
    present.length % 2 === 1
      ? (present[middle] ?? 1)
      : ((present[middle - 1] ?? 1) + (present[middle] ?? 1)) / 2;
  return Math.min(TYPICAL_MAX[field], Math.max(1, median));
}
