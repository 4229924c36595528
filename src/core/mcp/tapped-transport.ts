import type {
  JSONRPCMessage,
  JSONRPCRequest,
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/client";
import { withinNesting } from "../policy/nesting-limit.js";
import { RequestStreams } from "./request-streams.js";
import { markServerSentError } from "./server-sent-errors.js";
import type { WireDirection } from "./types.js";

type Tap = (direction: WireDirection, message: JSONRPCMessage) => void;
/** `_meta` entries for each outgoing request (trace context); the one place requests get them. */
export type RequestMeta = (request: JSONRPCRequest) => Record<string, string> | undefined;

/**
 * Sees each message on its way: one going out, and one coming in, which it may hand on changed,
 * or keep from the SDK (undefined). A watcher that answers requests itself (the task driver)
 * may also change or hold back what goes out (`sending`), and hand the SDK messages of its own.
 */
export interface WireWatcher {
  sent(message: JSONRPCMessage): void;
  received(message: JSONRPCMessage): JSONRPCMessage | undefined;
  /** The message as it goes out, changed, or undefined to send nothing. Before the trace sees it. */
  sending?(message: JSONRPCMessage): JSONRPCMessage | undefined;
  /** Called once the transport starts, with the way to hand the SDK a message as if received. */
  started?(deliver: (message: JSONRPCMessage) => void): void;
}

/**
 * Wraps a transport so every JSON-RPC message in both directions is reported, for the wire view
 * of the trace, as it was on the wire. Watchers see the messages too, and only they may change
 * one before the SDK reads it (see MalformedTools); a message nested deeper than anything
 * after it can follow is cut at MAX_NESTING first, for all of them (policy/nesting-limit.ts);
 * a server's error answer with a code mcpterm uses for its own transport failures is marked as
 * the server's (server-sent-errors.ts). It hides nothing the SDK reads off a transport: whether a request has its own stream (closing it
 * cancels the request on 2026 HTTP) and, for a stdio server only, its process (a stdio server
 * that ignores the 2026 probe is waited out and spoken to in 2025; an HTTP one that times out
 * is not).
 */
export class TappedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  /** The protocol version the client settled on, which it hands to its transport once. */
  protocolVersion: string | undefined;

  /** A remote transport's requests, each on a stream of its own; none for a stdio process. */
  private readonly streams: RequestStreams | undefined;

  protected constructor(
    readonly inner: Transport,
    private readonly tap: Tap,
    private readonly watchers: readonly WireWatcher[],
    private readonly requestMeta: RequestMeta | undefined,
  ) {
    // A request whose stream ended unanswered can no longer be answered: the connection is lost.
    // Closed through the transport itself, so the SDK's own close path runs (its reconnection
    // timers stopped, the session ended) and reports it as any close.
    this.streams = isProcessTransport(inner) ? undefined : new RequestStreams(() => void inner.close());
  }

  /** Wraps `inner`; a stdio process transport stays recognisable as one. */
  static wrap(
    inner: Transport,
    tap: Tap,
    watchers: readonly WireWatcher[] = [],
    requestMeta?: RequestMeta,
  ): TappedTransport {
    return isProcessTransport(inner)
      ? new TappedStdioTransport(inner, tap, watchers, requestMeta)
      : new TappedTransport(inner, tap, watchers, requestMeta);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    this.inner.onmessage = (received, extra) => {
      const message = withinNesting(received);
      this.tap("receive", message);
      this.streams?.received(message);
      let seen: JSONRPCMessage | undefined = markServerSentError(message);
      for (const watcher of this.watchers) {
        seen = watcher.received(seen);
        if (seen === undefined) return;
      }
      const delivered = seen;
      // The SDK hands each notification to its handler a microtask later, but settles an answer
      // at once, dropping its request's progress handler: progress sent just before the answer
      // (in the same read) was lost. An answer is handed over a microtask later too, behind them.
      if (isAnswer(delivered)) queueMicrotask(() => this.onmessage?.(delivered, extra));
      else this.onmessage?.(delivered, extra);
    };
    // What a watcher hands the SDK stands for the server's answer, and is marked as one.
    for (const watcher of this.watchers)
      watcher.started?.((message) => this.onmessage?.(markServerSentError(message)));
    this.inner.onerror = (error) => {
      this.streams?.transportError(error);
      this.onerror?.(error);
    };
    // After any answer handed over late (above): a last answer read as the pipes closed (a server
    // that wrote it without a line break and exited) must reach its request before the close.
    this.inner.onclose = () => queueMicrotask(() => this.onclose?.());
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    let sent: JSONRPCMessage | undefined = this.withMeta(message);
    for (const watcher of this.watchers) {
      sent = watcher.sending ? watcher.sending(sent) : sent;
      if (sent === undefined) return Promise.resolve();
    }
    this.tap("send", sent);
    for (const watcher of this.watchers) watcher.sent(sent);
    const { streams } = this;
    if (streams === undefined) return this.inner.send(sent, options);
    const out = sent;
    return this.inner.send(out, streams.sending(out, options)).catch((error: unknown) => {
      streams.notSent(out);
      throw error;
    });
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

/** A response to a request of the client's: a result or an error, with no method of its own. */
function isAnswer(message: JSONRPCMessage): boolean {
  return !("method" in message) && ("result" in message || "error" in message);
}

/** A transport to a local process: the SDK tells stdio from HTTP by these two. */
interface ProcessTransport extends Transport {
  readonly pid: number | undefined;
  readonly stderr: unknown;
}

function isProcessTransport(transport: Transport): transport is ProcessTransport {
  return "pid" in transport && "stderr" in transport;
}

class TappedStdioTransport extends TappedTransport {
  constructor(
    private readonly process: ProcessTransport,
    tap: Tap,
    watchers: readonly WireWatcher[],
    requestMeta: RequestMeta | undefined,
  ) {
    super(process, tap, watchers, requestMeta);
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get stderr(): unknown {
    return this.process.stderr;
  }
}
