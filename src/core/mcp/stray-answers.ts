import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { brokenAnswer } from "./malformed-answer.js";
import { requestKey } from "./request-key.js";
import type { WireWatcher } from "./tapped-transport.js";

/** Request ids remembered as sent, and requests remembered as waiting, past which the oldest go. */
const REMEMBERED_IDS = 4096;
/**
 * How long the one request waiting may still get its own answer after a stray one came: a
 * server may answer something that was not a request (a notification, a duplicate) and then
 * the request itself, which must not be failed for it.
 */
export const STRAY_GRACE_MS = 3000;
/**
 * Requests that wait without end by design, or that mcpterm gives up on without cancelling
 * them: neither is the request a stray answer was meant for, nor may it hide the one that is.
 */
const NOT_AWAITED = new Set(["subscriptions/listen", "server/discover"]);

interface Waiting {
  id: string | number;
  method: string;
}

/**
 * Watches a stdio server for an answer whose id no request of mcpterm's had: a server that
 * answers request 5 as 1005, or echoes an id of its own. The SDK drops such an answer, so the
 * request it was meant for waited out its timeout and was reported as never answered, which sent
 * the server's author looking for a hang. When exactly one request is waiting, the stray answer
 * is most likely its own: if that request has no answer STRAY_GRACE_MS later, it fails, as the
 * server breaking the protocol, saying which id came back. With none or several waiting there is
 * no telling which it answered, and it is left to the SDK, which drops it. Ids compare as the
 * SDK compares them (requestKey). An answer to a request that stopped waiting (timed out, cancelled)
 * is not stray: its id was sent.
 */
export class StrayAnswers implements WireWatcher {
  /** Requests sent and not yet answered or cancelled, by id, oldest first. */
  private readonly waiting = new Map<string, Waiting>();
  /** Every request id sent, up to REMEMBERED_IDS of them. */
  private readonly sentIds = new RecentKeys(REMEMBERED_IDS);
  private deliver: (message: JSONRPCMessage) => void = () => undefined;

  constructor(private readonly graceMs = STRAY_GRACE_MS) {}

  started(deliver: (message: JSONRPCMessage) => void): void {
    this.deliver = deliver;
  }

  sent(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message) {
      const key = requestKey(message.id);
      this.sentIds.add(key);
      if (!NOT_AWAITED.has(message.method)) {
        this.waiting.set(key, { id: message.id, method: message.method });
        if (this.waiting.size > REMEMBERED_IDS) this.waiting.delete(this.waiting.keys().next().value ?? key);
      }
    } else if ("method" in message && message.method === "notifications/cancelled") {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === "number" || typeof requestId === "string")
        this.waiting.delete(requestKey(requestId));
    }
  }

  received(message: JSONRPCMessage): JSONRPCMessage {
    if ("method" in message || !("id" in message) || message.id === undefined) return message;
    const key = requestKey(message.id);
    if (this.waiting.delete(key) || this.sentIds.has(key) || this.waiting.size !== 1) return message;
    const [waitingKey, waiting] = [...this.waiting][0] ?? [];
    if (waitingKey !== undefined && waiting !== undefined) this.failLater(waitingKey, waiting, message);
    return message;
  }

  /** Fails the request waiting unless its own answer comes within the grace (or it is cancelled). */
  private failLater(key: string, waiting: Waiting, stray: JSONRPCMessage & { id?: unknown }): void {
    const answer = brokenAnswer(
      waiting.id,
      `it answered with id ${JSON.stringify(stray.id)}, which no request had, and its ${waiting.method} request (id ${JSON.stringify(waiting.id)}) got no answer of its own within ${this.graceMs / 1000} s: an answer must carry the id of the request it answers`,
      JSON.stringify(stray),
    );
    setTimeout(() => {
      if (this.waiting.get(key) !== waiting) return;
      this.waiting.delete(key);
      this.deliver(answer);
    }, this.graceMs).unref();
  }
}

/**
 * The last `capacity` distinct keys, by when each was first added (adding one already held
 * changes nothing), the oldest going first. A ring says which is oldest: asking a Set for its
 * first entry, after thousands were deleted from its front, walks past every one of them until
 * the Set is rebuilt, and a session past REMEMBERED_IDS requests asked on each one.
 */
class RecentKeys {
  private readonly keys = new Set<string>();
  private readonly ring: string[] = [];
  private next = 0;

  constructor(private readonly capacity: number) {}

  add(key: string): void {
    if (this.keys.has(key)) return;
    const oldest = this.ring[this.next];
    if (oldest !== undefined) this.keys.delete(oldest);
    this.ring[this.next] = key;
    this.next = (this.next + 1) % this.capacity;
    this.keys.add(key);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }
}
