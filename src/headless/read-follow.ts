import type { ReadResourceResult } from "@modelcontextprotocol/client";
import type { SubscriptionEvent } from "../core/mcp/subscriptions.js";

export interface FollowOptions {
  uri: string;
  read(): Promise<ReadResourceResult>;
  /** Prints one reading; `update` is 0 for the first, then 1, 2, … */
  print(result: ReadResourceResult, update: number): Promise<void>;
  /** A re-read failed (the server is still there): told, and the follow goes on. */
  readFailed(error: unknown): void;
  /** Hears the server's subscription events; returns how to stop hearing them. */
  updates(listener: (event: SubscriptionEvent) => void): () => void;
  /** Whether the server is still there (connected, or connecting again). */
  alive(): boolean;
  /** Hears the server's status changes; returns how to stop hearing them. */
  changes(listener: () => void): () => void;
  /** Ctrl+C: the follow ends. */
  signal: AbortSignal;
}

/** Why a follow ended: a signal, the server lost, or the subscription ended while it stood. */
export type FollowEnd =
  { kind: "stopped" } | { kind: "lost"; reason: string } | { kind: "ended"; reason: string };

/**
 * Prints the resource (already subscribed to), then again after each update, until `signal`
 * aborts, the server is no longer connected, or the subscription ends (the server ended it, or
 * mcpterm gave up listening again). Updates that arrive while a reading is under way are answered
 * by one more reading after it, not one each: a server that updates a thousand times a second
 * costs a reading at a time. A re-read that fails is told (`readFailed`) and the follow goes on:
 * the next update reads again.
 */
export async function followResource(options: FollowOptions): Promise<FollowEnd> {
  let finish: (end: FollowEnd) => void = () => undefined;
  const done = new Promise<FollowEnd>((resolve) => {
    finish = resolve;
  });
  // Heard from the start: a subscription that ends during the first reading still ends the follow.
  const stopUpdates = options.updates((event) => {
    if (event.kind === "updated" && event.uri === options.uri) void readAgain();
    const ended = subscriptionEnd(event, options.uri);
    if (ended !== undefined) finish({ kind: "ended", reason: ended });
  });
  const stopChanges = options.changes(() => {
    if (!options.alive()) finish({ kind: "lost", reason: "the connection was lost" });
  });
  const onAbort = (): void => finish({ kind: "stopped" });
  options.signal.addEventListener("abort", onAbort, { once: true });
  if (options.signal.aborted) finish({ kind: "stopped" });

  let update = 0;
  const wanted = { again: false };
  let reading = false;
  const stopped = (): boolean => options.signal.aborted;
  const readAgain = async (): Promise<void> => {
    wanted.again = true;
    if (reading) return;
    reading = true;
    try {
      while (wanted.again && !options.signal.aborted) {
        wanted.again = false;
        update += 1;
        try {
          await options.print(await options.read(), update);
        } catch (error) {
          if (!stopped() && options.alive()) options.readFailed(error);
        }
      }
    } finally {
      reading = false;
    }
  };
  try {
    reading = true;
    const reading0 = options.read().then((result) => ({ result }));
    // Ended meanwhile: the first reading's failure, if it fails, is then nobody's news.
    reading0.catch(() => undefined);
    const first = await Promise.race([reading0, done]);
    if (!("result" in first)) return first;
    await options.print(first.result, update);
    reading = false;
    // Updates that came during the first reading are answered now.
    if (wanted.again) void readAgain();
    return await done;
  } finally {
    stopUpdates();
    stopChanges();
    options.signal.removeEventListener("abort", onAbort);
  }
}

/** Why the subscription to `uri` ended for good, if this event says it did; else undefined. */
function subscriptionEnd(event: SubscriptionEvent, uri: string): string | undefined {
  if (event.kind === "failed" && event.subject === uri && !event.retrying)
    return `subscribing again failed: ${event.reason}`;
  if (event.kind !== "closed" || event.subject !== uri || event.relisten) return undefined;
  // mcpterm's own closes: an unsubscribe is not made here, and a stopped connection is its loss.
  if (event.why === "unsubscribed" || event.why === "stopped") return undefined;
  return event.why === "gave up"
    ? "it kept dropping the subscription, and mcpterm stopped listening again"
    : "it ended the subscription";
}
