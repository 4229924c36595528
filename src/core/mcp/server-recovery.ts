import { setTimeout as delay } from "node:timers/promises";

/** The wait before each attempt to bring back a server that was lost: backoff, five tries. */
export const RECONNECT_DELAYS_MS: readonly number[] = [250, 500, 1000, 2000, 4000];
/**
 * A server lost more often than this within LOSS_WINDOW_MS dies as soon as it runs: it is not
 * brought back again, so a crash loop does not become an endless restart loop.
 */
const MAX_LOSSES = 5;
const LOSS_WINDOW_MS = 60_000;

/**
 * Brings a lost server back (its process exited, its connection closed): a few attempts with
 * backoff, each one a whole new connection (a stdio server is started again, an HTTP server gets
 * a new session or is discovered again), which lists its tools again. Calls that met the loss
 * may wait for the outcome (`whenBack`).
 */
export class ServerRecovery {
  private losses: number[] = [];
  private running: Promise<boolean> | undefined;
  private readonly lifetime = new AbortController();

  /** `attempt` connects once and says whether the server is connected now. */
  constructor(private readonly attempt: () => Promise<boolean>) {}

  /** Starts bringing the server back; false (and nothing started) when it keeps getting lost. */
  start(): boolean {
    if (this.lifetime.signal.aborted) return false;
    const now = Date.now();
    this.losses = [...this.losses.filter((at) => now - at < LOSS_WINDOW_MS), now];
    if (this.losses.length > MAX_LOSSES) return false;
    const run = this.run();
    this.running = run;
    void run.finally(() => {
      if (this.running === run) this.running = undefined;
    });
    return true;
  }

  /** Whether an attempt to bring the server back is under way. */
  get active(): boolean {
    return this.running !== undefined;
  }

  /**
   * Resolves true once the server is back, false when it did not come back, nothing is bringing
   * it back, or `signal` (the caller's cancel) fired first.
   */
  async whenBack(signal?: AbortSignal): Promise<boolean> {
    const running = this.running;
    if (!running) return false;
    if (!signal) return running;
    if (signal.aborted) return false;
    let onAbort = (): void => undefined;
    const aborted = new Promise<boolean>((resolve) => {
      onAbort = () => resolve(false);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([running, aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Whether mcpterm closed the server for good: nothing may start it again. */
  isStopped(): boolean {
    return this.lifetime.signal.aborted;
  }

  /** For good: mcpterm is closing the server; an attempt under way ends at its next step. */
  stop(): void {
    this.lifetime.abort();
  }

  private async run(): Promise<boolean> {
    for (const ms of RECONNECT_DELAYS_MS) {
      const waited = await delay(ms, true, { signal: this.lifetime.signal }).catch(() => false);
      if (!waited) return false;
      if (await this.attempt()) return true;
      if (this.lifetime.signal.aborted) return false;
    }
    return false;
  }
}
