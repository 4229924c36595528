import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { brokenAnswer } from "./malformed-answer.js";
import { MODERN_REVISION } from "./protocol-era.js";
import { requestKey } from "./request-key.js";
import type { WireWatcher } from "./tapped-transport.js";

/** Why a 2026 server's request goes unanswered, as the end of a sentence about it. */
const UNANSWERED_WHY = `${MODERN_REVISION} does not let a server send (it asks for roots, sampling or the person's input inside its answer, as input_required), so mcpterm leaves it unanswered`;
/** How much of a method or id the server sent a message quotes. */
const SHOWN_CHARS = 100;
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

export interface LostAnswersOptions {
  /** Whether the connection settled on 2026-07-28, asked as each message comes. */
  modern?: () => boolean;
  /** Tells the connection's log what the server did wrong. */
  note?: (text: string) => void;
  graceMs?: number;
}

/**
 * Watches a stdio server for what leaves a request of mcpterm's waiting for an answer that will
 * not come, which would otherwise be reported, once its timeout passed, as the server never
 * answering and send its author looking for a hang:
 * - an answer whose id no request had (a server that answers request 5 as 1005, or echoes an id
 *   of its own), which the SDK drops. When exactly one request is waiting, it is most likely
 *   the one: if it has no answer STRAY_GRACE_MS later, it fails, as the server breaking the
 *   protocol, saying which id came back. With none or several waiting there is no telling
 *   which, and the SDK drops the message. Ids compare as the SDK compares them (requestKey). An
 *   answer to a request that stopped waiting (timed out, cancelled) is not stray: its id was sent.
 * - on 2026-07-28, a request from the server (`roots/list`, `sampling/createMessage`): that
 *   revision has a server ask inside its answer (input_required), and a client on stdio must not
 *   answer a request, so the SDK drops it unanswered, and a server waiting for the answer waits
 *   in vain. It is noted in the server's log as it comes, and a call that times out after it
 *   says so (explainSilence); nothing fails sooner, since a server may go on without the answer.
 */
export class LostAnswers implements WireWatcher {
  /** Requests sent and not yet answered or cancelled, by id, oldest first. */
  private readonly waiting = new Map<string, Waiting>();
  /** Every request id sent, up to REMEMBERED_IDS of them. */
  private readonly sentIds = new RecentKeys(REMEMBERED_IDS);
  private deliver: (message: JSONRPCMessage) => void = () => undefined;

  private readonly graceMs: number;
  /** The latest request a 2026 server sent (ping aside). */
  private asked: string | undefined;
  /** The id of the latest answer no request had, until a timeout names it. */
  private stray: string | undefined;

  constructor(private readonly options: LostAnswersOptions = {}) {
    this.graceMs = options.graceMs ?? STRAY_GRACE_MS;
  }

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
    if (!("id" in message) || message.id === undefined) return message;
    if ("method" in message) {
      if (this.options.modern?.()) this.requestOn2026(message);
      return message;
    }
    const key = requestKey(message.id);
    if (this.waiting.delete(key) || this.sentIds.has(key)) return message;
    // With one request waiting it is failed for this (below); with several, a timeout names it.
    if (this.waiting.size > 1) this.stray = cut(JSON.stringify(message.id));
    this.failOneWaiting(
      (waiting) =>
        `it answered with id ${cut(JSON.stringify(message.id))}, which no request had, and its ${waiting.method} request (id ${JSON.stringify(waiting.id)}) got no answer of its own within ${this.graceMs / 1000} s: an answer must carry the id of the request it answers`,
      message,
    );
    return message;
  }

  /**
   * What may explain why a request of mcpterm's timed out, as a clause for its message:
   * - an answer that came with an id no request had while several waited (with one waiting, that
   *   one has failed already): it may have been this request's; said once, for the first request
   *   to time out after it;
   * - the latest request the server sent and was left unanswered: the server may be waiting for
   *   that answer still (one sent as it started, roots/list after initialize, holds every call
   *   after it). A ping is no such request: a server sends it on a timer of its own, and goes on.
   */
  explainSilence(): string | undefined {
    const stray =
      this.stray === undefined
        ? undefined
        : `it answered with id ${this.stray}, which no request had, while several waited: that answer may have been this request's (an answer must carry the id of the request it answers)`;
    this.stray = undefined;
    const asked =
      this.asked === undefined
        ? undefined
        : `it had sent ${this.asked} and may be waiting for its answer; ${MODERN_REVISION} does not let a server send requests (it asks for roots, sampling or the person's input inside its answer, as input_required), so mcpterm left it unanswered`;
    return [stray, asked].filter((clause) => clause !== undefined).join("; ") || undefined;
  }

  /** A request from a 2026 server, which the SDK drops unanswered: noted in the server's log, and kept for a timeout to name. */
  private requestOn2026(request: JSONRPCMessage & { id: string | number; method: string }): void {
    const what = `a ${cut(request.method)} request (id ${cut(JSON.stringify(request.id))})`;
    this.options.note?.(`the server sent ${what}, which ${UNANSWERED_WHY}`);
    if (request.method !== "ping") this.asked = what;
  }

  /** When exactly one request waits, fails it unless its own answer comes within the grace (or it is cancelled). */
  private failOneWaiting(reason: (waiting: Waiting) => string, cause: JSONRPCMessage): void {
    if (this.waiting.size !== 1) return;
    const [key, waiting] = [...this.waiting][0] ?? [];
    if (key === undefined || waiting === undefined) return;
    const answer = brokenAnswer(waiting.id, reason(waiting), JSON.stringify(cause));
    setTimeout(() => {
      if (this.waiting.get(key) !== waiting) return;
      this.waiting.delete(key);
      this.deliver(answer);
    }, this.graceMs).unref();
  }
}

/** What the server sent, as a message quotes it: no longer than a line's worth. */
function cut(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
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
