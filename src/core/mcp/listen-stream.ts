import { setTimeout as delay } from "node:timers/promises";
import type { Client, McpSubscription, SubscriptionFilter } from "@modelcontextprotocol/client";
import { errorMessage } from "../errors.js";

/** The waits before listening again after the server dropped the stream: backoff, capped. */
export const RELISTEN_DELAYS_MS: readonly number[] = [250, 500, 1000, 2000, 4000, 8000, 15_000, 30_000];
/**
 * A stream that stayed open this long was healthy: the next drop starts the backoff over. One
 * that drops sooner counts towards giving up, so a server that acknowledges and drops at once
 * costs a few requests, never a spin.
 */
const HEALTHY_MS = 30_000;

/** How a 2026 listen stream ended, as the trace and /mcp show it. */
export type ListenEnd = "local" | "graceful" | "remote" | "gave up";

export interface ListenEvents {
  /** The server acknowledged: what of the filter it honours. */
  opened(honored: SubscriptionFilter): void;
  /** It ended; `relisten` says whether it is being opened again. */
  closed(why: ListenEnd, relisten: boolean): void;
  /** Opening it failed (refused, timed out): the reason, and whether it is tried again. */
  failed(reason: string, retrying: boolean): void;
}

/**
 * One `subscriptions/listen` stream kept open on a 2026 connection: opened, and when the server
 * drops it ('remote': the stream ended without the listen result) opened again after a backoff
 * that grows with each quick drop; given up after as many quick drops as there are delays. A
 * graceful end (the server sent the listen result) is the server's choice and is left closed.
 */
export class ListenStream {
  private current: McpSubscription | undefined;
  private readonly lifetime = new AbortController();

  constructor(
    private readonly client: Client,
    private readonly filter: SubscriptionFilter,
    private readonly timeoutMs: number,
    private readonly events: ListenEvents,
  ) {}

  /** Opens the stream; resolves with the honoured filter, or throws when the first opening fails. */
  async open(): Promise<SubscriptionFilter> {
    const subscription = await this.client.listen(this.filter, { timeout: this.timeoutMs });
    this.keep(subscription);
    return subscription.honoredFilter;
  }

  /** Closes it for good (stop, restart, unsubscribe); a re-listen under way ends. */
  async close(): Promise<void> {
    this.lifetime.abort();
    await this.current?.close().catch(() => undefined);
  }

  private keep(subscription: McpSubscription, quickDrops = 0): void {
    this.current = subscription;
    const openedAt = Date.now();
    this.events.opened(subscription.honoredFilter);
    void subscription.closed.then((why) => {
      if (this.lifetime.signal.aborted || why !== "remote") {
        this.events.closed(why, false);
        return;
      }
      const drops = Date.now() - openedAt >= HEALTHY_MS ? 0 : quickDrops;
      const again = RELISTEN_DELAYS_MS[drops] !== undefined;
      this.events.closed(again ? "remote" : "gave up", again);
      if (again) void this.relisten(drops);
    });
  }

  private async relisten(quickDrops: number): Promise<void> {
    for (let drops = quickDrops; ; drops += 1) {
      const pause = RELISTEN_DELAYS_MS[drops];
      if (pause === undefined) {
        this.events.closed("gave up", false);
        return;
      }
      const waited = await delay(pause, true, { signal: this.lifetime.signal }).catch(() => false);
      if (!waited) return;
      try {
        const subscription = await this.client.listen(this.filter, { timeout: this.timeoutMs });
        if (this.lifetime.signal.aborted) {
          await subscription.close();
          return;
        }
        this.keep(subscription, drops + 1);
        return;
      } catch (error) {
        if (this.lifetime.signal.aborted) return;
        this.events.failed(errorMessage(error), RELISTEN_DELAYS_MS[drops + 1] !== undefined);
      }
    }
  }
}
