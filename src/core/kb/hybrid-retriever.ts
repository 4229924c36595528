import type { ChunkIndex, ScoredChunk } from "./chunk-index.js";
import type { KbHit } from "./types.js";
import { EmbeddingsClient, EmbeddingsError, type EmbeddingsClientOptions } from "./embeddings-client.js";
import { fuseScores, MIN_SIMILARITY } from "./fusion.js";
import { VectorIndex } from "./vector-index.js";

/** Candidates taken from each ranking before they are fused. */
const DEPTH = 50;

/**
 * Keyword and embedding retrieval fused by a weighted sum of normalized scores. The first failure of the endpoint
 * (unreachable, slow, wrong dimensions, NaN, oversized) is told once through `warn` and turns
 * embeddings off for the rest of the session: retrieval is then the keyword ranking alone.
 */
export class HybridRetriever {
  private failed = false;
  private readonly client: EmbeddingsClient;
  private readonly vectors: VectorIndex;

  constructor(
    indexDir: string,
    options: EmbeddingsClientOptions,
    private readonly warn: (text: string) => void,
  ) {
    this.client = new EmbeddingsClient(options);
    this.vectors = new VectorIndex(indexDir, this.client);
  }

  get active(): boolean {
    return !this.failed;
  }

  load(): Promise<void> {
    return this.vectors.load();
  }

  async sync(index: ChunkIndex, hashOf: (file: string) => string | undefined): Promise<void> {
    if (this.failed) return;
    try {
      await this.vectors.sync(index, hashOf);
    } catch (error) {
      this.fail(error);
    }
  }

  /** The fused top `k`, or undefined when embeddings are off, so the caller searches by keywords. */
  async retrieve(
    index: ChunkIndex,
    query: string,
    k: number,
    minRelevance?: number,
  ): Promise<KbHit[] | undefined> {
    if (this.failed || this.vectors.size === 0 || query.trim() === "") return undefined;
    let embedded: Float32Array | undefined;
    try {
      [embedded] = await this.client.embed([query], this.vectors.expectedDimensions);
    } catch (error) {
      this.fail(error);
      return undefined;
    }
    if (!embedded) return undefined;
    const keyword = index.candidates(query, minRelevance, DEPTH);
    const nearest = this.vectors.nearest(embedded, DEPTH, minRelevance === 0 ? -1 : MIN_SIMILARITY);
    const fused = fuseScores(
      keyword.map(({ id, score }) => ({ id, score })),
      nearest.map(({ id, similarity }) => ({ id, score: similarity })),
    );
    const byId = new Map<number, ScoredChunk>(keyword.map((c) => [c.id, c]));
    for (const { id, similarity } of nearest) {
      const known = byId.get(id);
      if (known) byId.set(id, { ...known, relevance: Math.max(known.relevance, similarity) });
      else {
        const chunk = index.chunk(id);
        if (chunk) byId.set(id, { id, chunk, score: 0, relevance: similarity, queryTerms: [] });
      }
    }
    const ranked = [...byId.values()]
      .map((candidate) => ({ ...candidate, score: fused.get(candidate.id) ?? 0 }))
      .sort((a, b) => b.score - a.score);
    return index.select(query, ranked, k);
  }

  private fail(error: unknown): void {
    if (!(error instanceof EmbeddingsError)) throw error;
    this.failed = true;
    this.warn(
      `Embeddings are off for this session: ${error.message}; the knowledge base searches by keywords only.`,
    );
  }
}
