/**
 * At most `limit` requests per `windowMs` from each server, and one at a time: a server cannot
 * flood the person with questions or spend the model on its own.
 */
export class PerServerRateLimit {
  private readonly recent = new Map<string, number[]>();
  private readonly busy = new Set<string>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a slot for `server`, or says why not; a taken slot must be released when done. */
  take(server: string): { ok: true; release: () => void } | { ok: false; reason: string } {
    if (this.busy.has(server)) return { ok: false, reason: "it already has a request waiting" };
    const now = this.now();
    const kept = (this.recent.get(server) ?? []).filter((at) => now - at < this.windowMs);
    if (kept.length >= this.limit) {
      this.recent.set(server, kept);
      return {
        ok: false,
        reason: `it sent ${this.limit} requests within ${Math.round(this.windowMs / 1000)} s, the most mcpterm takes`,
      };
    }
    kept.push(now);
    this.recent.set(server, kept);
    this.busy.add(server);
    return { ok: true, release: () => this.busy.delete(server) };
  }
}
