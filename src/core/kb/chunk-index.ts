import { COMMON_TERMS } from "./common-words.js";
import { selectDiverse } from "./ranking.js";
import { matchedWords, passesFloor, RELEVANCE_FLOOR } from "./relevance.js";
import {
  buildSegment,
  FIELD_COUNT,
  mergeSegments,
  type FileStat,
  type Segment,
  type SegmentInput,
} from "./segment.js";
import { joinSplitCompounds } from "./split-compounds.js";
import { isCjkTerm, tokenize } from "./tokenizer.js";
import type { Chunk, KbHit } from "./types.js";

export const DEFAULT_K = 4;
/**
 * No cut relative to the best passage: the relevance floor (relevance.ts) says what is too weak
 * to show, and the old cut at 0.2 of the best cost Cranfield 0.008 Recall@10 (bench/kb-eval.ts).
 */
const MIN_RELATIVE_SCORE = 0;
/**
 * Files are spread over this many segments by a hash of their path, so that saving after one
 * file changed rewrites one segment (about 1/64 of the index), never the whole index.
 */
export const BUCKETS = 64;

/** Typos: one edit for words of 5+ letters. Never on CJK terms, where one edit is another word. */
function typoMatched(term: string): boolean {
  return !isCjkTerm(term) && term.length >= 5;
}

/** The last word may still be being typed. */
function prefixMatched(term: string, index: number, terms: readonly string[]): boolean {
  return index === terms.length - 1 && term.length >= 3 && !isCjkTerm(term);
}

/**
 * Tuned with bench/kb-eval.ts (see docs/knowledge-base.md); the same scoring minisearch gave
 * with these options: BM25+ per field, boosted fields summed, times the number of query terms
 * matched; prefix and one-edit matches weighted down by how much longer or different they are.
 */
const FIELD_BOOST = [1.5, 1.5, 1];
const BM25 = { k: 1.2, b: 0.75, d: 0.5 };
const PREFIX_WEIGHT = 0.4;
const FUZZY_WEIGHT = 0.3;

/** Where a file's passages are kept and the ids they have in this process. */
interface IndexedFile {
  hash: string;
  bucket: number;
  ids: number[];
  stat: FileStat | undefined;
}

/** Where the segment of a bucket was last written, so an unchanged bucket is not written again. */
export interface StoredSegment {
  file: string;
  bytes: number;
  crc: number;
}

interface Bucket {
  segment: Segment | undefined;
  /** Files of `segment` that were removed or replaced since. */
  removed: Set<string>;
  /** Files added or replaced since `segment` was made, in order. */
  added: Map<string, SegmentInput>;
  /** Local document -> chunk id, for `segment`. */
  ids: Int32Array;
  stored: StoredSegment | undefined;
}

/**
 * The chunks of every indexed file and a BM25+ inverted index over their title, heading path and
 * text, kept as immutable segments (segment.ts), one per bucket of files. Files are added and
 * removed as a whole; a changed bucket is rebuilt (its kept postings merged with the new file's)
 * before the next search or save, which is what incremental refresh needs.
 */
export class ChunkIndex {
  private readonly files = new Map<string, IndexedFile>();
  private readonly byId = new Map<number, { bucket: number; doc: number }>();
  private readonly buckets: Bucket[];
  private nextId = 1;
  private chunkTotal = 0;
  private dirty = false;
  private terms: string[] | undefined;

  private constructor(segments: ReadonlyArray<{ segment: Segment; stored?: StoredSegment } | undefined>) {
    this.buckets = Array.from({ length: BUCKETS }, (_, b) => {
      const entry = segments[b];
      return {
        segment: entry?.segment,
        removed: new Set<string>(),
        added: new Map<string, SegmentInput>(),
        ids: new Int32Array(0),
        stored: entry?.stored,
      };
    });
    this.buckets.forEach((bucket, b) => {
      const segment = bucket.segment;
      if (!segment) return;
      bucket.ids = new Int32Array(segment.docCount);
      for (const file of segment.files) {
        if (this.files.has(file.path)) throw new Error(`${file.path} is in two segments`);
        if (bucketOf(file.path) !== b) throw new Error(`${file.path} is in the wrong segment`);
        const ids: number[] = [];
        for (let i = 0; i < file.count; i++) {
          const id = this.nextId++;
          ids.push(id);
          bucket.ids[file.first + i] = id;
          this.byId.set(id, { bucket: b, doc: file.first + i });
        }
        this.chunkTotal += file.count;
        this.files.set(file.path, { hash: file.hash, bucket: b, ids, stat: file.stat });
      }
    });
  }

  static empty(): ChunkIndex {
    return new ChunkIndex([]);
  }

  /** An index of segments read from disk, by bucket. Throws when they do not fit together. */
  static fromSegments(
    segments: ReadonlyArray<{ segment: Segment; stored: StoredSegment } | undefined>,
  ): ChunkIndex {
    return new ChunkIndex(segments);
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
    return this.chunkTotal;
  }

  /** The size and times the file had when it was indexed, when they can be trusted (FileStat). */
  fileStat(path: string): FileStat | undefined {
    return this.files.get(path)?.stat;
  }

  /** Records the stat of a file whose content did not change; its segment is saved again. */
  setFileStat(path: string, stat: FileStat): void {
    const file = this.files.get(path);
    if (!file) return;
    file.stat = stat;
    const bucket = this.buckets[file.bucket] as Bucket;
    const added = bucket.added.get(path);
    if (added) added.stat = stat;
    else if (bucket.segment) {
      bucket.segment = bucket.segment.withFiles(
        bucket.segment.files.map((entry) => (entry.path === path ? { ...entry, stat } : entry)),
      );
    }
    bucket.stored = undefined;
  }

  /** Replaces whatever was indexed for `path` with these chunks. */
  setFile(path: string, hash: string, chunks: readonly Chunk[], stat?: FileStat): void {
    this.removeFile(path);
    const b = bucketOf(path);
    const bucket = this.buckets[b] as Bucket;
    const ids = chunks.map(() => this.nextId++);
    this.files.set(path, { hash, bucket: b, ids, stat });
    this.chunkTotal += ids.length;
    bucket.added.set(path, { path, hash, chunks, stat });
    bucket.stored = undefined;
    this.dirty = true;
  }

  removeFile(path: string): void {
    const file = this.files.get(path);
    if (!file) return;
    const bucket = this.buckets[file.bucket] as Bucket;
    for (const id of file.ids) this.byId.delete(id);
    this.chunkTotal -= file.ids.length;
    this.files.delete(path);
    bucket.added.delete(path);
    bucket.removed.add(path);
    bucket.stored = undefined;
    this.dirty = true;
  }

  /** Rebuilds the segments of the buckets that changed; searches and saves call it first. */
  compact(): Promise<void> {
    this.flush();
    return Promise.resolve();
  }

  /** The segment of each bucket, with where it was last stored (undefined once it changed). */
  segments(): ReadonlyArray<{ segment: Segment | undefined; stored: StoredSegment | undefined }> {
    this.flush();
    return this.buckets.map(({ segment, stored }) => ({ segment, stored }));
  }

  /** Records where the segment of `bucket` now is on disk. */
  markStored(bucket: number, stored: StoredSegment): void {
    const entry = this.buckets[bucket];
    if (entry) entry.stored = stored;
  }

  /** The distinct terms of every segment, made at the first typo match after a change. */
  private vocabulary(live: ReadonlyArray<{ segment: Segment }>): readonly string[] {
    if (!this.terms) {
      const all = new Set<string>();
      for (const { segment } of live) for (const term of segment.terms()) all.add(term);
      this.terms = [...all];
    }
    return this.terms;
  }

  private flush(): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.terms = undefined;
    this.buckets.forEach((bucket, b) => {
      if (bucket.removed.size === 0 && bucket.added.size === 0) return;
      const parts: Array<{ segment: Segment; keep: (file: { path: string }) => boolean }> = [];
      if (bucket.segment) {
        const removed = bucket.removed;
        parts.push({ segment: bucket.segment, keep: (file) => !removed.has(file.path) });
      }
      if (bucket.added.size > 0) {
        const fresh = buildSegment([...bucket.added.values()]);
        if (parts.length === 0) bucket.segment = fresh;
        else parts.push({ segment: fresh, keep: () => true });
      }
      if (parts.length > 0) bucket.segment = mergeSegments(parts);
      bucket.removed = new Set();
      bucket.added = new Map();
      const segment = bucket.segment;
      bucket.ids = new Int32Array(segment?.docCount ?? 0);
      for (const file of segment?.files ?? []) {
        const ids = this.files.get(file.path)?.ids ?? [];
        for (let i = 0; i < file.count; i++) {
          const id = ids[i] ?? 0;
          bucket.ids[file.first + i] = id;
          this.byId.set(id, { bucket: b, doc: file.first + i });
        }
      }
    });
  }

  /**
   * The best passages for `query`, each holding at least `minRelevance` of the query's weight
   * (see relevance.ts), spread across files, best first.
   */
  search(query: string, k: number = DEFAULT_K, minRelevance: number = RELEVANCE_FLOOR): KbHit[] {
    if (k <= 0) return [];
    const scored = this.score(query, minRelevance);
    if (!scored) return [];
    // Enough of the best to fill k with at most half from one file; all of them only when not.
    const top = scored.top(Math.max(64, 4 * k));
    if (top.length < scored.count && !fillsDiverse(top, k)) return this.select(query, scored.all(), k);
    return this.select(query, top, k);
  }

  /**
   * The passages past the floor, by keyword score, best first, chunk ids kept for fusion: the
   * best `limit` of them (fusion looks no deeper, and a common word can pass the floor in tens
   * of thousands of passages, each built into a result), or every one without it.
   */
  candidates(query: string, minRelevance: number = RELEVANCE_FLOOR, limit?: number): ScoredChunk[] {
    const scored = this.score(query, minRelevance);
    if (!scored) return [];
    return limit === undefined ? scored.all() : scored.top(limit);
  }

  /** The top `k` of scored passages (best first), at most half of them from one file. */
  select(query: string, candidates: readonly ScoredChunk[], k: number): KbHit[] {
    const perFile = Math.max(1, Math.ceil(k / 2));
    const ranked = candidates.map((candidate) => ({
      candidate,
      path: candidate.chunk.path,
      score: candidate.score,
    }));
    return selectDiverse(ranked, { k, minRelativeScore: MIN_RELATIVE_SCORE, maxPerFile: perFile }).map(
      ({ candidate: { chunk, score, relevance, queryTerms } }) => ({
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
    this.flush();
    const at = this.byId.get(id);
    return at ? this.buckets[at.bucket]?.segment?.chunk(at.doc) : undefined;
  }

  /** The ids of a file's chunks, in file order. */
  chunkIds(path: string): readonly number[] {
    return this.files.get(path)?.ids ?? [];
  }

  /**
   * Scores every passage holding a term of the query, term at a time over the posting lists of
   * the query's terms only. Exact and prefix matches first; typo matching (a scan of the terms
   * of each segment per long word) only when some word of the query matched nothing as typed.
   */
  private score(query: string, minRelevance: number): ScoredSet | undefined {
    this.flush();
    let terms = tokenize(query);
    if (terms.length === 0) return undefined;
    let unique = [...new Set(terms)];
    const live = this.buckets.filter((bucket): bucket is Bucket & { segment: Segment } => !!bucket.segment);
    let accumulated = accumulate(live, terms, unique, undefined);
    const found = accumulated.found;
    const compounds = joinSplitCompounds(
      terms,
      (term) => found[unique.indexOf(term)] === true,
      (term) => live.some(({ segment }) => segment.find(Buffer.from(term, "utf8")) >= 0),
    );
    if (compounds !== undefined) {
      terms = compounds;
      unique = [...new Set(terms)];
      accumulated = accumulate(live, terms, unique, undefined);
    }
    const typo = unique.some((term, u) => typoMatched(term) && !accumulated.found[u]);
    if (typo) accumulated = accumulate(live, terms, unique, () => this.vocabulary(live));
    return new ScoredSet(live, unique, accumulated, minRelevance);
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

/** FNV-1a of the path: which bucket (segment) a file lives in. */
export function bucketOf(path: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) {
    hash ^= path.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % BUCKETS;
}

/** Whether the first pass of selectDiverse (at most half of k from one file) fills k from `top`. */
function fillsDiverse(top: readonly ScoredChunk[], k: number): boolean {
  const perFile = Math.max(1, Math.ceil(k / 2));
  const counts = new Map<string, number>();
  let chosen = 0;
  for (const candidate of top) {
    const count = counts.get(candidate.chunk.path) ?? 0;
    if (count >= perFile) continue;
    counts.set(candidate.chunk.path, count + 1);
    if (++chosen >= k) return true;
  }
  return false;
}

interface Accumulated {
  /** Per global document (segments one after another): summed BM25+ score. */
  scores: Float64Array;
  /** Per document, `words` 32-bit words: which unique query terms it holds. */
  masks: Uint32Array;
  words: number;
  touched: Int32Array;
  touchedCount: number;
  found: boolean[];
  frequency: number[];
  documents: number;
}

function accumulate(
  segments: ReadonlyArray<{ segment: Segment }>,
  terms: readonly string[],
  unique: readonly string[],
  /** The distinct terms of all segments, for typo matching; undefined: no typo matching. */
  vocabulary: (() => readonly string[]) | undefined,
): Accumulated {
  const bases: number[] = [];
  let documents = 0;
  const lengthSums = [0, 0, 0];
  for (const { segment } of segments) {
    bases.push(documents);
    documents += segment.docCount;
    for (let f = 0; f < FIELD_COUNT; f++)
      lengthSums[f] = (lengthSums[f] ?? 0) + (segment.fieldLengthSum[f] ?? 0);
  }
  const average = lengthSums.map((sum) => (documents > 0 ? sum / documents : 0));
  const words = Math.max(1, Math.ceil(unique.length / 32));
  const scores = new Float64Array(documents);
  const masks = new Uint32Array(documents * words);
  const touched = new Int32Array(documents);
  let touchedCount = 0;
  const found = unique.map(() => false);
  /** Per unique query term, how many passages hold it (in any derived form). */
  const frequency = new Array<number>(unique.length).fill(0);
  const { k, b, d } = BM25;

  terms.forEach((term, position) => {
    const u = unique.indexOf(term);
    const word = u >>> 5;
    const bit = 1 << (u & 31);
    const key = Buffer.from(term, "utf8");
    // Derived terms (the exact one, prefix and one-edit matches) -> weight and where each is.
    const derived = new Map<string, { weight: number; at: Array<[number, number]> }>();
    const add = (derivedTerm: string, weight: number, s: number, index: number): void => {
      const entry = derived.get(derivedTerm);
      if (entry) entry.at.push([s, index]);
      else derived.set(derivedTerm, { weight, at: [[s, index]] });
    };
    const prefix = prefixMatched(term, position, terms);
    const typo = vocabulary !== undefined && typoMatched(term);
    const prefixed = new Set<string>();
    segments.forEach(({ segment }, s) => {
      const exact = segment.find(key);
      if (exact >= 0) add(term, 1, s, exact);
      if (prefix) {
        const [from, to] = segment.prefixRange(key);
        for (let index = from; index < to; index++) {
          if (index === exact) continue;
          const longer = segment.term(index);
          prefixed.add(longer);
          const distance = longer.length - term.length;
          add(longer, (PREFIX_WEIGHT * longer.length) / (longer.length + 0.3 * distance), s, index);
        }
      }
    });
    if (typo) {
      // Every distinct term once (segments share most of theirs), then where each match is.
      for (const other of vocabulary()) {
        if (other === term || prefixed.has(other) || !withinOneEdit(term, other)) continue;
        const otherKey = Buffer.from(other, "utf8");
        const weight = (FUZZY_WEIGHT * other.length) / (other.length + 1);
        segments.forEach(({ segment }, s) => {
          const index = segment.find(otherKey);
          if (index >= 0) add(other, weight, s, index);
        });
      }
    }
    for (const { weight, at } of derived.values()) {
      for (let f = 0; f < FIELD_COUNT; f++) {
        let df = 0;
        for (const [s, index] of at) {
          const segment = (segments[s] as { segment: Segment }).segment;
          df +=
            (segment.postingStarts[index * FIELD_COUNT + f + 1] ?? 0) -
            (segment.postingStarts[index * FIELD_COUNT + f] ?? 0);
        }
        if (df === 0) continue;
        const idf = Math.log(1 + (documents - df + 0.5) / (df + 0.5));
        const factor = weight * (FIELD_BOOST[f] ?? 1) * idf;
        const avg = average[f] || 1;
        for (const [s, index] of at) {
          const segment = (segments[s] as { segment: Segment }).segment;
          const base = bases[s] ?? 0;
          const from = segment.postingStarts[index * FIELD_COUNT + f] ?? 0;
          const to = segment.postingStarts[index * FIELD_COUNT + f + 1] ?? 0;
          const docs = segment.postingDocs;
          const tfs = segment.postingTfs;
          const lengths = segment.fieldLengths;
          for (let p = from; p < to; p++) {
            const local = docs[p] as number;
            const tf = tfs[p] as number;
            const length = lengths[local * FIELD_COUNT + f] as number;
            const doc = base + local;
            if (scores[doc] === 0) touched[touchedCount++] = doc;
            scores[doc] =
              (scores[doc] as number) +
              factor * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * length) / avg)));
            const held = masks[doc * words + word] as number;
            if ((held & bit) === 0) {
              masks[doc * words + word] = held | bit;
              frequency[u] = (frequency[u] as number) + 1;
            }
          }
          found[u] = true;
        }
      }
    }
  });
  return { scores, masks, words, touched, touchedCount, found, frequency, documents };
}

/** Levenshtein distance of at most 1 (UTF-16 units, as minisearch measured it). */
function withinOneEdit(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (la - lb > 1 || lb - la > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Past the first difference: substitute (skip one in both), delete (one in a), insert (one in b).
  const ia = la >= lb ? i + 1 : i;
  const ib = lb >= la ? i + 1 : i;
  if (la - ia !== lb - ib) return false;
  for (let x = ia, y = ib; x < la; x++, y++) if (a.charCodeAt(x) !== b.charCodeAt(y)) return false;
  return true;
}

/**
 * The passages past the relevance floor with their final scores (times the number of query
 * terms matched, as minisearch did), turned into ScoredChunks only for the ones asked for.
 */
class ScoredSet {
  private readonly docs: Int32Array;
  private readonly final: Float64Array;
  private readonly relevance: Float64Array;
  readonly count: number;
  private readonly bases: number[];

  constructor(
    private readonly segments: ReadonlyArray<Bucket & { segment: Segment }>,
    private readonly unique: readonly string[],
    private readonly accumulated: Accumulated,
    minRelevance: number,
  ) {
    const { masks, words, touched, touchedCount, documents } = accumulated;
    this.bases = [];
    let base = 0;
    for (const { segment } of segments) {
      this.bases.push(base);
      base += segment.docCount;
    }
    // Relevance weights (relevance.ts termWeights): rarity among the matches themselves.
    const frequency = accumulated.frequency;
    const n = Math.max(documents, 1);
    const weights = unique.map((term, u) => {
      const df = frequency[u] as number;
      return COMMON_TERMS.has(term) ? 0 : Math.log(1 + (n - Math.min(df, n) + 0.5) / (df + 0.5));
    });
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const uniqueEvidence = Math.log(1 + (n + 0.5) / 0.5);
    this.docs = new Int32Array(touchedCount);
    this.final = new Float64Array(touchedCount);
    this.relevance = new Float64Array(touchedCount);
    let count = 0;
    for (let i = 0; i < touchedCount; i++) {
      const doc = touched[i] as number;
      let held = 0;
      let informative = 0;
      let matched = 0;
      for (let w = 0; w < words; w++) {
        let mask = masks[doc * words + w] as number;
        while (mask !== 0) {
          const low = mask & -mask;
          const weight = weights[w * 32 + 31 - Math.clz32(low)] ?? 0;
          held += weight;
          if (weight > 0) informative++;
          matched++;
          mask ^= low;
        }
      }
      const coverage = total > 0 ? Math.min(1, held / total) : 0;
      if (
        !passesFloor(
          { coverage, evidence: held / uniqueEvidence, informativeTerms: informative },
          minRelevance,
        )
      ) {
        continue;
      }
      this.docs[count] = doc;
      this.final[count] = (accumulated.scores[doc] as number) * (matched || 1);
      this.relevance[count] = coverage;
      count++;
    }
    this.count = count;
  }

  private where(doc: number): [Bucket & { segment: Segment }, number] {
    let s = this.bases.length - 1;
    while (s > 0 && (this.bases[s] as number) > doc) s--;
    return [this.segments[s] as Bucket & { segment: Segment }, doc - (this.bases[s] as number)];
  }

  /** Best first: by score, then by path and line, so that equal scores come out the same every time. */
  private before(i: number, j: number): boolean {
    const a = this.final[i] as number;
    const b = this.final[j] as number;
    if (a !== b) return a > b;
    const [sa, da] = this.where(this.docs[i] as number);
    const [sb, db] = this.where(this.docs[j] as number);
    const pa = sa.segment.path(da);
    const pb = sb.segment.path(db);
    if (pa !== pb) return pa < pb;
    return (sa.segment.lines[2 * da] as number) < (sb.segment.lines[2 * db] as number);
  }

  /** The best `limit`, best first: one pass keeping a small heap. */
  top(limit: number): ScoredChunk[] {
    if (this.count <= limit) return this.all();
    const heap: number[] = [];
    // A min-heap by `before`: the root is the worst of the best so far.
    const worse = (x: number, y: number): boolean => this.before(y, x);
    const siftDown = (): void => {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        const right = left + 1;
        let worst = at;
        if (left < heap.length && worse(heap[left] as number, heap[worst] as number)) worst = left;
        if (right < heap.length && worse(heap[right] as number, heap[worst] as number)) worst = right;
        if (worst === at) return;
        [heap[at], heap[worst]] = [heap[worst] as number, heap[at] as number];
        at = worst;
      }
    };
    for (let i = 0; i < this.count; i++) {
      if (heap.length < limit) {
        heap.push(i);
        let at = heap.length - 1;
        while (at > 0) {
          const parent = (at - 1) >> 1;
          if (!worse(heap[at] as number, heap[parent] as number)) break;
          [heap[at], heap[parent]] = [heap[parent] as number, heap[at] as number];
          at = parent;
        }
      } else if (this.before(i, heap[0] as number)) {
        heap[0] = i;
        siftDown();
      }
    }
    return this.materialize(heap.sort((x, y) => (this.before(x, y) ? -1 : 1)));
  }

  all(): ScoredChunk[] {
    const order = Array.from({ length: this.count }, (_, i) => i);
    order.sort((x, y) => (x === y ? 0 : this.before(x, y) ? -1 : 1));
    return this.materialize(order);
  }

  private materialize(order: readonly number[]): ScoredChunk[] {
    const { masks, words } = this.accumulated;
    return order.map((i) => {
      const doc = this.docs[i] as number;
      const [bucket, local] = this.where(doc);
      const segment = bucket.segment;
      const queryTerms: string[] = [];
      this.unique.forEach((term, u) => {
        if (((masks[doc * words + (u >>> 5)] as number) >>> (u & 31)) & 1) queryTerms.push(term);
      });
      let chunk: Chunk | undefined;
      // The chunk's texts are decoded only when a caller reads them (fusion reads few of many).
      return {
        id: bucket.ids[local] as number,
        get chunk(): Chunk {
          chunk ??= segment.chunk(local);
          return chunk;
        },
        score: this.final[i] as number,
        relevance: this.relevance[i] as number,
        queryTerms,
      };
    });
  }
}
