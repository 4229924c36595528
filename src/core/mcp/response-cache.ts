/**
 * How long a result may be kept, as a 2026 server said in it (CacheableResult: `ttlMs`,
 * `cacheScope`). A 2025 result says nothing and is never kept.
 */
export interface CacheHint {
  ttlMs: number;
  cacheScope: "public" | "private";
}

/** A result served from the cache, for the trace: what, and how much of its time was left. */
export interface CacheHit {
  server: string;
  method: string;
  /** The cursor of a list page, the URI of a read; "" for a list's first page. */
  key: string;
  ttlMs: number;
  leftMs: number;
}

/** The spec's and the SDK's ceiling: a server cannot pin a result for longer than a day. */
const MAX_TTL_MS = 86_400_000;
/** Reads kept at most: URIs are many (templates), list pages are few. */
const MAX_READS = 256;

/** The hint a result carries, or undefined when it may not be kept (no ttlMs, 0, negative). */
export function cacheHintOf(result: unknown): CacheHint | undefined {
  const { ttlMs, cacheScope } = (result ?? {}) as { ttlMs?: unknown; cacheScope?: unknown };
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs)) return undefined;
  // An absent or unknown scope is taken as the narrower one.
  return { ttlMs: Math.max(0, ttlMs), cacheScope: cacheScope === "public" ? "public" : "private" };
}

interface Entry {
  value: unknown;
  expiresAt: number;
  hint: CacheHint;
}

/**
 * One server's results kept for as long as it said (SEP-2549): list pages (each page on its own,
 * by cursor) and resource reads (by URI). Asked again within that time, mcpterm answers from
 * here instead of asking the server. A list_changed or resources/updated makes the matching
 * entries stale at once (`invalidate`). Not the SDK's cache: that one says nothing of whether a
 * result came from it, starts empty on every reconnection, and serves lists only on the SDK's
 * own aggregate listing, which mcpterm does not use (it pages itself, with its own limits).
 *
 * One cache per server entry, never shared between servers or processes. `private` results are
 * for one authorization context: `dropPrivate` when it may have changed (a new sign-in).
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  /** The hint each method's last result carried, kept or not: what a server author checks. */
  private readonly lastHints = new Map<string, CacheHint>();
  /** Bumped by every invalidation: an answer that was on its way meanwhile is not kept. */
  private generation = 0;

  constructor(
    private readonly server: string,
    private readonly onHit: ((hit: CacheHit) => void) | undefined,
    private readonly now: () => number = Date.now,
    /**
     * Whether the server speaks the era that defines ttlMs (2026). A 2025 result that carries one
     * anyway says nothing the 2025 spec lets a client act on: it is never kept.
     */
    private readonly definesTtl: () => boolean = () => true,
  ) {}

  /**
   * The kept result of `method` for `key` while it is fresh, else `fetch`'s (kept if its hint
   * allows and `keepable` agrees). `fresh` skips the kept one (and replaces it).
   */
  async through<T>(
    method: string,
    key: string,
    fetch: () => Promise<T>,
    options: { fresh?: boolean | undefined; keepable?: () => boolean } = {},
  ): Promise<T> {
    const id = `${method}\u0000${key}`;
    const entry = this.entries.get(id);
    const now = this.now();
    if (entry && options.fresh !== true && entry.expiresAt > now) {
      this.onHit?.({
        server: this.server,
        method,
        key,
        ttlMs: entry.hint.ttlMs,
        leftMs: entry.expiresAt - now,
      });
      // A copy: whoever reads it may shape it, and the next reader must get what the server sent.
      return structuredClone(entry.value) as T;
    }
    this.entries.delete(id);
    const generation = this.generation;
    const value = await fetch();
    const hint = this.definesTtl() ? cacheHintOf(value) : undefined;
    if (hint) this.lastHints.set(method, hint);
    // An invalidation while the answer was on its way: that answer may already be stale.
    const keepable = options.keepable?.() ?? true;
    if (hint && hint.ttlMs > 0 && keepable && generation === this.generation)
      this.keep(id, method, value, hint);
    return value;
  }

  /** The server said these changed: every page of `method` (or the one `key`) is stale. */
  invalidate(method: string, key?: string): void {
    this.generation += 1;
    for (const id of [...this.entries.keys()]) {
      const [entryMethod, entryKey] = id.split("\u0000");
      if (entryMethod === method && (key === undefined || entryKey === key)) this.entries.delete(id);
    }
  }

  /** A new authorization context may begin: results for the last one alone are forgotten. */
  dropPrivate(): void {
    this.generation += 1;
    for (const [id, entry] of this.entries) if (entry.hint.cacheScope === "private") this.entries.delete(id);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** The hint the server last sent per method (`tools/list`: 60000 ms, public), for reports. */
  hints(): Record<string, CacheHint> {
    return Object.fromEntries(this.lastHints);
  }

  private keep(id: string, method: string, value: unknown, hint: CacheHint): void {
    if (method === "resources/read" && !this.entries.has(id)) {
      const reads = [...this.entries.keys()].filter((key) => key.startsWith("resources/read\u0000"));
      if (reads.length >= MAX_READS && reads[0] !== undefined) this.entries.delete(reads[0]);
    }
    // Its own copy: the caller that fetched it may shape the one it got.
    const kept = structuredClone(value);
    this.entries.set(id, { value: kept, expiresAt: this.now() + Math.min(hint.ttlMs, MAX_TTL_MS), hint });
  }
}
