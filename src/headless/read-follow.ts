import type { ReadResourceResult } from "@modelcontextprotocol/client";
import type { SubscriptionEvent } from "../core/mcp/subscriptions.js";

export interface FollowOptions {
  uri: string;
  read(): Promise<ReadResourceResult>;
  /** Prints one reading; `update` is 0 for the first, then 1, 2, … */
  print(result: ReadResourceResult, update: number): Promise<void>;
  /** Hears the server's subscription events; returns how to stop hearing them. */
  updates(listener: (event: SubscriptionEvent) => void): () => void;
  /** Whether the server is still there (connected, or connecting again). */
  alive(): boolean;
  /** Hears the server's status changes; returns how to stop hearing them. */
  changes(listener: () => void): () => void;
  /** Ctrl+C: the follow ends. */
  signal: AbortSignal;
}

/**
 * Prints the resource (already subscribed to), then again after each update, until `signal`
 * aborts (undefined) or the server is no longer connected (a sentence saying so). Updates that
 * arrive while a reading is under way are answered by one more reading after it, not one each:
 * a server that updates a thousand times a second costs a reading at a time.
 */
export async function followResource(options: FollowOptions): Promise<string | undefined> {
  let update = 0;
  await options.print(await options.read(), update);
  const wanted = { again: false };
  let reading = false;
  let finish: (lost: string | undefined) => void = () => undefined;
  const done = new Promise<string | undefined>((resolve) => {
    finish = resolve;
  });
  const readAgain = async (): Promise<void> => {
    wanted.again = true;
    if (reading) return;
    reading = true;
    try {
      while (wanted.again && !options.signal.aborted) {
        wanted.again = false;
        update += 1;
        await options.print(await options.read(), update);
      }
    } catch (error) {
      if (!options.signal.aborted) finish((error as Error).message);
    } finally {
      reading = false;
    }
  };
  const stopUpdates = options.updates((event) => {
    if (event.kind === "updated" && event.uri === options.uri) void readAgain();
  });
  const stopChanges = options.changes(() => {
    if (!options.alive()) finish("the connection was lost");
  });
  const onAbort = (): void => finish(undefined);
  options.signal.addEventListener("abort", onAbort, { once: true });
  if (options.signal.aborted) finish(undefined);
  try {
    return await done;
  } finally {
    stopUpdates();
    stopChanges();
    options.signal.removeEventListener("abort", onAbort);
  }
}
