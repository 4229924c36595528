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
export const MAX_TTL_MS = 86_400_000;
/** Reads kept at most: URIs are many (templates), list pages are few. */
const MAX_READS = 256;
/** A result larger than this (in characters of its strings) is never kept: it would crowd out the rest. */
export const MAX_KEPT_RESULT_CHARS = 1024 * 1024;
/** All kept results together stay under this; the oldest go first to make room. */
export const MAX_KEPT_TOTAL_CHARS = 32 * 1024 * 1024;

/**
 * The characters of every string in `value` (keys included), counted until `limit` is passed:
 * a cheap stand-in for its size in memory that never walks a huge result to the end.
 */
export function sizeUpTo(value: unknown, limit: number): number {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && size <= limit) {
    const next = pending.pop();
    if (typeof next === "string") size += next.length;
    else if (typeof next !== "object" || next === null) size += 8;
    else
      // Each item costs a little on its own, so a huge array stops the walk early too.
      for (const [key, item] of Object.entries(next)) {
        size += key.length + 4;
        if (size > limit) break;
        pending.push(item);
      }
  }
  return size;
}

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
  /** What sizeUpTo counted, for the total budget. */
  size: number;
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
  /** Per method, per key (a cursor, a URI): each method's entries in the order they were kept. */
  private readonly entries = new Map<string, Map<string, Entry>>();
  /** The size of every entry kept, together. */
  private total = 0;
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
    const entry = this.entries.get(method)?.get(key);
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
    this.remove(method, key);
    const generation = this.generation;
    const value = await fetch();
    const hint = this.definesTtl() ? cacheHintOf(value) : undefined;
    if (hint) this.lastHints.set(method, hint);
    // An invalidation while the answer was on its way: that answer may already be stale.
    const keepable = options.keepable?.() ?? true;
    if (hint && hint.ttlMs > 0 && keepable && generation === this.generation)
      this.keep(method, key, value, hint);
    return value;
  }

  /** The server said these changed: every page of `method` (or the one `key`) is stale. */
  invalidate(method: string, key?: string): void {
    this.generation += 1;
    const kept = this.entries.get(method);
    if (!kept) return;
    for (const entryKey of key === undefined ? [...kept.keys()] : [key]) this.remove(method, entryKey);
  }

  /** A new authorization context may begin: results for the last one alone are forgotten. */
  dropPrivate(): void {
    this.generation += 1;
    for (const [method, kept] of this.entries)
      for (const [key, entry] of [...kept]) if (entry.hint.cacheScope === "private") this.remove(method, key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.total = 0;
  }

  /** The hint the server last sent per method (`tools/list`: 60000 ms, public), for reports. */
  hints(): Record<string, CacheHint> {
    return Object.fromEntries(this.lastHints);
  }

  private keep(method: string, key: string, value: unknown, hint: CacheHint): void {
    // Measured before it is copied: a result too large to keep costs no copy.
    const size = sizeUpTo(value, MAX_KEPT_RESULT_CHARS);
    if (size > MAX_KEPT_RESULT_CHARS) return;
    let kept = this.entries.get(method);
    if (!kept) {
      kept = new Map();
      this.entries.set(method, kept);
    }
    if (method === "resources/read" && !kept.has(key) && kept.size >= MAX_READS) {
      const oldest = kept.keys().next();
      if (!oldest.done) this.remove(method, oldest.value);
    }
    this.remove(method, key);
    this.makeRoom(size);
    // Its own copy: the caller that fetched it may shape the one it got.
    const copy = structuredClone(value);
    kept.set(key, { value: copy, expiresAt: this.now() + Math.min(hint.ttlMs, MAX_TTL_MS), hint, size });
    this.total += size;
  }

  /** Forgets the oldest results (reads first: they are many, list pages few) until `size` fits. */
  private makeRoom(size: number): void {
    const methods = [...this.entries.keys()].sort((a, b) =>
      a === "resources/read" ? -1 : b === "resources/read" ? 1 : 0,
    );
    for (const method of methods) {
      const kept = this.entries.get(method);
      if (!kept) continue;
      for (const key of [...kept.keys()]) {
        if (this.total + size <= MAX_KEPT_TOTAL_CHARS) return;
        this.remove(method, key);
      }
    }
  }

  private remove(method: string, key: string): void {
    const kept = this.entries.get(method);
    const entry = kept?.get(key);
    if (!kept || !entry) return;
    kept.delete(key);
    this.total -= entry.size;
  }
}
