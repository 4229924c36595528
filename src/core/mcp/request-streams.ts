import type { JSONRPCMessage, TransportSendOptions } from "@modelcontextprotocol/client";

type RequestId = string | number;

/**
 * The requests a remote transport carries on streams of their own (Streamable HTTP answers a
 * POST with an SSE stream), and what became of each stream. When a server goes away during a
 * call whose stream it made resumable, the SDK tries to reconnect a few times, then gives up and
 * only reports it: nothing answers the request, which waits out the whole call timeout (a
 * minute) and then fails as a timeout, though the server is gone. The SDK does say when a
 * request's stream has ended for good (`onRequestStreamEnd`, never for a deliberate abort); a
 * stream that ends with its request still unanswered means the server can no longer answer it,
 * and `onLost` is told, once, so the connection is handled as lost at once.
 */
export class RequestStreams {
  private readonly unanswered = new Set<RequestId>();
  private told = false;

  constructor(private readonly onLost: () => void) {}

  /** The options to send `message` with: a request's stream is watched, anything else is as given. */
  sending(
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
  ): TransportSendOptions | undefined {
    if ("method" in message && message.method === "notifications/cancelled") {
      // Given up on by the client: no answer is owed any more.
      const { requestId } = (message.params ?? {}) as { requestId?: unknown };
      if (typeof requestId === "string" || typeof requestId === "number") this.unanswered.delete(requestId);
      return options;
    }
    if (!("method" in message) || !("id" in message)) return options;
    const { id } = message;
    this.unanswered.add(id);
    const given = options?.onRequestStreamEnd;
    return {
      ...options,
      onRequestStreamEnd: () => {
        given?.();
        this.ended(id);
      },
    };
  }

  /** A send that failed is answered by its own error: nothing is owed. */
  notSent(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message) this.unanswered.delete(message.id);
  }

  /** A message from the server: an answer settles its request. */
  received(message: JSONRPCMessage): void {
    if (!("method" in message) && "id" in message && message.id !== undefined)
      this.unanswered.delete(message.id);
  }

  private ended(id: RequestId): void {
    if (!this.unanswered.delete(id) || this.told) return;
    this.told = true;
    this.onLost();
  }
}
