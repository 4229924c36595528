import type { JSONRPCMessage, TransportSendOptions } from "@modelcontextprotocol/client";
import { requestKey } from "./request-key.js";

/** What the SDK says when it could not resume a request's stream (and then gives up). */
const RESUME_FAILED = /reconnect/i;

/**
 * The requests a remote transport carries on streams of their own (Streamable HTTP answers a
 * POST with an SSE stream), and what became of each stream. When a server goes away during a
 * call whose stream it made resumable, the SDK tries to resume it a few times, reports each
 * failure, then gives up: nothing answers the request, which waited out the whole call timeout
 * (a minute) and failed as a timeout, though the server was gone. The SDK does say when a
 * request's stream has ended for good (`onRequestStreamEnd`, never for a deliberate abort); one
 * that ends unanswered after the SDK reported failing to resume it means the server can no
 * longer be reached, and `onLost` is told, once. A stream that ends unanswered otherwise (an
 * answer the SDK could not read, say) is left to the call's timeout, as before.
 */
export class RequestStreams {
  /** Each request still owed an answer, with how many resume failures had been reported when it went out. */
  private readonly unanswered = new Map<string, number>();
  private resumeFailures = 0;
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
      if (typeof requestId === "string" || typeof requestId === "number")
        this.unanswered.delete(requestKey(requestId));
      return options;
    }
    if (!("method" in message) || !("id" in message)) return options;
    const key = requestKey(message.id);
    this.unanswered.set(key, this.resumeFailures);
    // A request aborted on purpose (a timeout, Ctrl+C; on 2026 HTTP without a cancel notice) is
    // owed nothing, and its stream never reports its end.
    options?.requestSignal?.addEventListener("abort", () => this.unanswered.delete(key), { once: true });
    const given = options?.onRequestStreamEnd;
    return {
      ...options,
      onRequestStreamEnd: () => {
        given?.();
        this.ended(key);
      },
    };
  }

  /** A send that failed is answered by its own error: nothing is owed. */
  notSent(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message) this.unanswered.delete(requestKey(message.id));
  }

  /** A message from the server: an answer settles its request. */
  received(message: JSONRPCMessage): void {
    if (!("method" in message) && "id" in message && message.id !== undefined)
      this.unanswered.delete(requestKey(message.id));
  }

  /** An error the transport reported; the SDK's failures to resume a stream are counted. */
  transportError(error: Error): void {
    if (RESUME_FAILED.test(error.message)) this.resumeFailures += 1;
  }

  private ended(key: string): void {
    const failuresBefore = this.unanswered.get(key);
    if (failuresBefore === undefined) return;
    this.unanswered.delete(key);
    if (this.told || this.resumeFailures === failuresBefore) return;
    this.told = true;
    this.onLost();
  }
}
