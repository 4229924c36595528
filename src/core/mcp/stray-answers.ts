import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { brokenAnswer } from "./malformed-answer.js";
import type { WireWatcher } from "./tapped-transport.js";

/** Request ids remembered as sent, past which the oldest are forgotten: a session's worth. */
const REMEMBERED_IDS = 4096;

/**
 * Watches for an answer whose id no request of mcpterm's had: a server that answers request 5
 * as 1005, or echoes an id of its own. The SDK drops such an answer, so the request it was meant
 * for waits out its timeout and is reported as never answered, which sends the server's author
 * looking in the wrong place. When exactly one request is waiting, the stray answer can only be
 * meant for it: that request fails at once, as the server breaking the protocol, saying which
 * id came back. With none or several waiting there is no telling which it answered, and it is
 * left to the SDK. Ids compare as the SDK compares them (keyOf). An answer to a request
 * that stopped waiting (timed out, cancelled) is not stray: its id was sent.
 */
export class StrayAnswers implements WireWatcher {
  /** Requests sent and not yet answered or cancelled, by id. */
  private readonly waiting = new Map<string, { id: string | number; method: string }>();
  /** Every request id sent, up to REMEMBERED_IDS, oldest first. */
  private readonly sentIds = new Set<string>();

  sent(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message) {
      const key = keyOf(message.id);
      this.waiting.set(key, { id: message.id, method: message.method });
      this.sentIds.add(key);
      if (this.sentIds.size > REMEMBERED_IDS) this.sentIds.delete(this.sentIds.values().next().value ?? key);
    } else if ("method" in message && message.method === "notifications/cancelled") {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === "number" || typeof requestId === "string")
        this.waiting.delete(keyOf(requestId));
    }
  }

  received(message: JSONRPCMessage): JSONRPCMessage {
    if ("method" in message || !("id" in message) || message.id === undefined) return message;
    const key = keyOf(message.id);
    if (this.waiting.delete(key) || this.sentIds.has(key) || this.waiting.size !== 1) return message;
    const [waitingKey, waiting] = [...this.waiting][0] ?? [];
    if (waitingKey === undefined || waiting === undefined) return message;
    this.waiting.delete(waitingKey);
    return brokenAnswer(
      waiting.id,
      `it answered with id ${JSON.stringify(message.id)}, which no request had, while its ${waiting.method} request (id ${JSON.stringify(waiting.id)}) waited: an answer must carry the id of the request it answers`,
      JSON.stringify(message),
    );
  }
}

/**
 * An id as the SDK matches it: its own requests' ids are numbers, matched by `Number(id)` (so
 * `"5"` answers 5); an id that is no number (mcpterm's `server/discover` probe) only by itself.
 */
function keyOf(id: string | number): string {
  const number = typeof id === "number" ? id : id.trim() === "" ? Number.NaN : Number(id);
  return Number.isFinite(number) ? `n:${number}` : `s:${String(id)}`;
}
