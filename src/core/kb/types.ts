/** One retrieved passage, as shown inline in the TUI and cited to the model. */
export interface KbHit {
  /** Relative to the knowledge-base folder, with forward slashes. */
  path: string;
  startLine: number;
  endLine: number;
  /** Heading path such as "Guide > Install"; "" when the passage sits under no heading. */
  heading: string;
  /** The ranking score (BM25, or fused with embeddings); comparable only within one search. */
  score: number;
  /**
   * 0..1: the share of the query's weight the passage holds (relevance.ts), or with embeddings
   * its similarity when that is higher. What a person is shown, as "strong 82%".
   */
  relevance: number;
  /** The query's words the passage matched, as typed; empty for a match by meaning only. */
  matched: string[];
  text: string;
}

export interface KbStats {
  files: number;
  chunks: number;
  /** Size of the persisted index (manifest plus segments); 0 before the first save. */
  indexBytes: number;
  /** When the index last changed (ISO 8601); undefined for an index never built. */
  updatedAt: string | undefined;
  dir: string;
}

export interface SkippedFile {
  path: string;
  reason: string;
}

export interface RefreshReport {
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: number;
  skipped: SkippedFile[];
  durationMs: number;
  /** Why the index could not be saved this time, when it could not; it is still used from memory. */
  notSaved?: string;
}

export interface SearchOptions {
  k?: number;
  /** Passages below this relevance (0..1) are dropped; default RELEVANCE_FLOOR. 0 keeps all. */
  minRelevance?: number;
}

export interface KnowledgeBase {
  readonly dir: string;
  /** Scans the folder, re-indexes only files whose content hash changed, and persists the index. */
  refresh(): Promise<RefreshReport>;
  /** Keyword search (BM25 with the relevance floor); synchronous, never leaves the machine. */
  search(query: string, options?: SearchOptions): KbHit[];
  /**
   * What a message is given: with kb.embeddings, keyword and embedding rankings fused; without
   * them, or once the endpoint failed, exactly search().
   */
  retrieve(query: string, options?: SearchOptions): Promise<KbHit[]>;
  stats(): KbStats;
}

/** The knowledge base as a session sees it: still loading, turned off (with why), or there. */
export type KnowledgeAccess =
  { state: "loading" } | { state: "off"; reason: string } | { state: "ready"; kb: KnowledgeBase };

/** A passage of one file: the unit that is indexed, shown and cited. */
export interface Chunk {
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  heading: string;
  /** The file's title (first top-level heading, else its name); indexed, not shown. */
  title: string;
  text: string;
}
