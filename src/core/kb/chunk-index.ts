import MiniSearch, {
  type AsPlainObject,
  type Options,
  type SearchOptions,
  type SearchResult,
} from "minisearch";
import { selectDiverse } from "./ranking.js";
import {
  coverage,
  evidence,
  informativeTerms,
  matchedWords,
  passesFloor,
  RELEVANCE_FLOOR,
  termWeights,
} from "./relevance.js";
import { isCjkTerm, tokenize } from "./tokenizer.js";
import type { Chunk, KbHit } from "./types.js";

/** What the index remembers about one file: its content hash and the ids of its chunks. */
export interface IndexedFile {
  hash: string;
  chunkIds: number[];
}

export interface ChunkIndexState {
  files: Record<string, IndexedFile>;
  chunks: Record<string, Chunk>;
  nextId: number;
  miniSearch: AsPlainObject;
}

interface IndexedChunk {
  id: number;
  title: string;
  heading: string;
  text: string;
}

export const DEFAULT_K = 4;
/**
 * No cut relative to the best passage: the relevance floor (relevance.ts) says what is too weak
 * to show, and the old cut at 0.2 of the best cost Cranfield 0.008 Recall@10 (bench/kb-eval.ts).
 */
const MIN_RELATIVE_SCORE = 0;

/** Typos: one edit for words of 5+ letters. Never on CJK terms, where one edit is another word. */
function typoMatched(term: string): boolean {
  return !isCjkTerm(term) && term.length >= 5;
}

/** Tuned with bench/kb-eval.ts; see docs/knowledge-base.md. */
const SEARCH_OPTIONS: SearchOptions = {
  boost: { title: 1.5, heading: 1.5, text: 1 },
  fuzzy: (term) => (typoMatched(term) ? 1 : false),
  // The last word may still be being typed.
  prefix: (term, index, terms) => index === terms.length - 1 && term.length >= 3 && !isCjkTerm(term),
  weights: { fuzzy: 0.3, prefix: 0.4 },
  bm25: { k: 1.2, b: 0.75, d: 0.5 },
};

const MINISEARCH_OPTIONS: Options<IndexedChunk> = {
  fields: ["title", "heading", "text"],
  storeFields: [],
  tokenize,
  processTerm: (term) => term,
  searchOptions: SEARCH_OPTIONS,
  autoVacuum: false,
};

/**
 * The chunks of every indexed file and a minisearch (BM25+) index over their title, heading path
 * and text. Files are added and removed as a whole, which is what incremental refresh needs.
 */
export class ChunkIndex {
  private constructor(
    private readonly miniSearch: MiniSearch<IndexedChunk>,
    private readonly files: Map<string, IndexedFile>,
    private readonly chunks: Map<number, Chunk>,
    private nextId: number,
  ) {}

  static empty(): ChunkIndex {
    return new ChunkIndex(new MiniSearch(MINISEARCH_OPTIONS), new Map(), new Map(), 1);
  }

  /** Throws when the state is not a usable index; callers rebuild in that case. */
  static fromState(state: ChunkIndexState): ChunkIndex {
    const miniSearch = MiniSearch.loadJS(state.miniSearch, MINISEARCH_OPTIONS);
    const chunks = new Map<number, Chunk>();
    for (const [id, chunk] of Object.entries(state.chunks)) chunks.set(Number(id), chunk);
    const files = new Map(Object.entries(state.files));
    for (const file of files.values()) {
      for (const id of file.chunkIds) {
        if (!chunks.has(id) || !miniSearch.has(id)) throw new Error(`chunk ${id} is missing from the index`);
      }
    }
    return new ChunkIndex(miniSearch, files, chunks, state.nextId);
  }

  toState(): ChunkIndexState {
    return {
      files: Object.fromEntries(this.files),
      chunks: Object.fromEntries(this.chunks),
      nextId: this.nextId,
      miniSearch: this.miniSearch.toJSON(),
    };
  }

  fileHash(path: string): string | undefined {
    return this.files.get(path)?.hash;
  }

  paths(): string[] {
    return [...this.files.keys()];
  }

  get fileCount(): number {
    return this.files.size;
  }

  get chunkCount(): number {
    return this.chunks.size;
  }

  /** Replaces whatever was indexed for `path` with these chunks. */
  setFile(path: string, hash: string, chunks: readonly Chunk[]): void {
    this.removeFile(path);
    const chunkIds: number[] = [];
    const documents: IndexedChunk[] = [];
    for (const chunk of chunks) {
      const id = this.nextId++;
      chunkIds.push(id);
      this.chunks.set(id, chunk);
      documents.push({ id, title: titleField(chunk), heading: chunk.heading, text: chunk.text });
    }
    this.miniSearch.addAll(documents);
    this.files.set(path, { hash, chunkIds });
  }

  removeFile(path: string): void {
    const file = this.files.get(path);
    if (!file) return;
    for (const id of file.chunkIds) {
      this.miniSearch.discard(id);
      this.chunks.delete(id);
    }
    this.files.delete(path);
  }

  /**
   * Removed chunks linger in minisearch's term lists (searches skip them) until vacuumed. A vacuum
   * walks every term, pausing 10 ms every 1,000 by default: over a large index that was most of
   * the cost of saving one edited file. So it runs only once a tenth of the entries are stale
   * (minisearch's own auto-vacuum rule), in large batches with short pauses.
   */
  async compact(): Promise<void> {
    if (this.miniSearch.dirtCount >= 20 && this.miniSearch.dirtFactor >= 0.1) {
      await this.miniSearch.vacuum({ batchSize: 50_000, batchWait: 1 });
    }
  }

  /**
   * The best passages for `query`, each holding at least `minRelevance` of the query's weight
   * (see relevance.ts), spread across files, best first.
   */
  search(query: string, k: number = DEFAULT_K, minRelevance: number = RELEVANCE_FLOOR): KbHit[] {
    if (k <= 0) return [];
    return this.select(query, this.candidates(query, minRelevance), k);
  }

  /** Every passage past the floor, by keyword score, best first; chunk ids kept for fusion. */
  candidates(query: string, minRelevance: number = RELEVANCE_FLOOR): ScoredChunk[] {
    const queryTerms = [...new Set(tokenize(query))];
    if (queryTerms.length === 0) return [];
    const results = this.match(query, queryTerms);
    const weights = termWeights(queryTerms, results, this.miniSearch.documentCount);
    return results.flatMap((result) => {
      const id = result.id as number;
      const chunk = this.chunks.get(id);
      const measured = {
        coverage: coverage(result.queryTerms, weights),
        evidence: evidence(result.queryTerms, weights, this.miniSearch.documentCount),
        informativeTerms: informativeTerms(result.queryTerms, weights),
      };
      if (!chunk || !passesFloor(measured, minRelevance)) return [];
      return [
        {
          id,
          chunk,
          score: result.score,
          relevance: measured.coverage,
          queryTerms: result.queryTerms,
        },
      ];
    });
  }

  /**
   * Exact and prefix matches first; typo matching (a walk of the whole term tree per long word,
   * most of a query's time) only when some word of the query matched nothing as typed.
   */
  private match(query: string, queryTerms: readonly string[]): SearchResult[] {
    const exact = this.miniSearch.search(query, { fuzzy: false });
    const found = new Set(exact.flatMap((result) => result.queryTerms));
    const typo = queryTerms.some((term) => !found.has(term) && typoMatched(term));
    return typo ? this.miniSearch.search(query) : exact;
  }

  /** The top `k` of scored passages (best first), at most half of them from one file. */
  select(query: string, candidates: readonly ScoredChunk[], k: number): KbHit[] {
    const perFile = Math.max(1, Math.ceil(k / 2));
    const ranked = candidates.map((candidate) => ({ ...candidate, path: candidate.chunk.path }));
    return selectDiverse(ranked, { k, minRelativeScore: MIN_RELATIVE_SCORE, maxPerFile: perFile }).map(
      ({ chunk, score, relevance, queryTerms }) => ({
        path: chunk.path,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        heading: chunk.heading,
        score: Math.round(score * 1000) / 1000,
        relevance: Math.round(relevance * 1000) / 1000,
        matched: matchedWords(query, queryTerms),
        text: chunk.text,
      }),
    );
  }

  chunk(id: number): Chunk | undefined {
    return this.chunks.get(id);
  }

  /** The ids of a file's chunks, in file order. */
  chunkIds(path: string): readonly number[] {
    return this.files.get(path)?.chunkIds ?? [];
  }
}

/** A passage with its id and scores, before it becomes a hit. */
export interface ScoredChunk {
  id: number;
  chunk: Chunk;
  score: number;
  relevance: number;
  /** The query's terms it holds; turned into the words shown only for the passages chosen. */
  queryTerms: readonly string[];
}

/** The title plus folder and file names ("guides/mcp-servers.md" -> "guides mcp servers"). */
function titleField(chunk: Chunk): string {
  const pathWords = chunk.path.replace(/\.[^./]+$/, "").replace(/[/\\_.-]+/g, " ");
  return pathWords.endsWith(chunk.title) ? pathWords : `${chunk.title} ${pathWords}`;
}
