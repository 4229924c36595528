import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { markServerSentError } from "./server-sent-errors.js";
import type { WireDirection } from "./types.js";

/**
 * Wraps a transport so every JSON-RPC message in both directions is reported, for the wire view
 * of the trace, as it crossed the wire. What passes through is unchanged, except that a server's
 * error answer with a code mcpterm uses for its own transport failures is marked as the
 * server's (server-sent-errors.ts).
 */
export class TappedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  constructor(
    readonly inner: Transport,
    private readonly tap: (direction: WireDirection, message: JSONRPCMessage) => void,
    /** `_meta` entries for each outgoing request (trace context); the one place requests get them. */
    private readonly requestMeta?: (request: JSONRPCRequest) => Record<string, string> | undefined,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** The protocol version agreed in initialize, which the client hands to its transport. */
  protocolVersion: string | undefined;

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      this.tap("receive", message);
      this.onmessage?.(markServerSentError(message), extra);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const sent = this.withMeta(message);
    this.tap("send", sent);
    return this.inner.send(sent, options);
  }

  /**
   * The request with the hook's entries merged into its `params._meta`, beside what is there
   * (the SDK's progressToken); answers and notifications pass unchanged. Done here, on the wire,
   * so every request gets them whatever client method sent it, in either protocol era.
   */
  private withMeta(message: JSONRPCMessage): JSONRPCMessage {
    if (this.requestMeta === undefined || !("method" in message) || !("id" in message)) return message;
    const entries = this.requestMeta(message);
    if (entries === undefined) return message;
    const params = (message.params ?? {}) as Record<string, unknown> & { _meta?: Record<string, unknown> };
    return { ...message, params: { ...params, _meta: { ...params._meta, ...entries } } };
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
