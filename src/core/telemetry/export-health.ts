import type { Agent as HttpAgent, ClientRequestArgs } from "node:http";
import type { Duplex } from "node:stream";
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import { errorMessage } from "../errors.js";
import { nodeHttp, nodeHttps } from "../node-http.js";

/** After a failed export, batches are dropped this long before the collector is tried again. */
const REST_AFTER_FAILURE_MS = 15_000;

/**
 * What mcpterm knows of the collector: whether it took the last export, and the one warning a
 * session gets when it does not. A refused connection is known at once (the exporter itself
 * would retry for its whole timeout), so an exit need not wait on a collector that is down.
 */
export class ExportHealth {
  private failedAt: number | undefined;
  private warned = false;
  private readonly downListeners = new Set<() => void>();

  constructor(
    private readonly where: string,
    private readonly warn: (text: string) => void,
    private readonly redact: (text: string) => string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the collector failed lately, so exports are skipped for now. */
  get resting(): boolean {
    return this.failedAt !== undefined && this.now() - this.failedAt < REST_AFTER_FAILURE_MS;
  }

  /** Whether the last thing heard of the collector was a failure. */
  get down(): boolean {
    return this.failedAt !== undefined;
  }

  succeeded(): void {
    this.failedAt = undefined;
  }

  failed(reason: string): void {
    this.failedAt = this.now();
    for (const listener of this.downListeners) listener();
    if (this.warned) return;
    this.warned = true;
    // Error texts may quote a collector's answer; headers (API keys) are known to the redactor.
    const why = this.redact(reason).slice(0, 200);
    this.warn(
      `traces could not be sent to ${this.where} (${why}); mcpterm goes on without them and tries again now and then.`,
    );
  }

  /** Resolves as soon as the collector is known to be down (at once when it already is). */
  whenDown(): { promise: Promise<void>; cancel: () => void } {
    let cancel = (): void => undefined;
    const promise = new Promise<void>((resolve) => {
      if (this.down) {
        resolve();
        return;
      }
      const listener = (): void => resolve();
      this.downListeners.add(listener);
      cancel = () => this.downListeners.delete(listener);
    });
    return { promise, cancel };
  }

  /**
   * An agent factory for the OTLP exporter whose sockets report a connection that fails (refused,
   * unknown host, reset), so that is known without waiting for the exporter's retries.
   */
  agentFactory(): (protocol: string) => Promise<HttpAgent> {
    return (protocol) => {
      const module = protocol === "https:" ? nodeHttps() : nodeHttp();
      const agent = new module.Agent({ keepAlive: true, maxSockets: 2 });
      const connect: (
        options: ClientRequestArgs,
        callback?: (error: Error | null, socket: Duplex) => void,
      ) => Duplex | null | undefined = agent.createConnection.bind(agent);
      agent.createConnection = (options, callback) => {
        const socket = connect(options, callback);
        socket?.once("error", (error: Error) => this.failed(errorMessage(error)));
        return socket;
      };
      return Promise.resolve(agent);
    };
  }
}

/**
 * The OTLP exporter behind a guard: while the collector rests after a failure, batches are
 * dropped at once instead of queued behind retries; every result is reported to `health`.
 */
export class GuardedExporter implements SpanExporter {
  /** Spans dropped because the collector was down; said in no message, kept for tests and debugging. */
  dropped = 0;

  constructor(
    private readonly inner: SpanExporter,
    private readonly health: ExportHealth,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    if (this.health.resting) {
      this.dropped += spans.length;
      done({ code: ExportResultCode.FAILED });
      return;
    }
    this.inner.export(spans, (result) => {
      if (result.code === ExportResultCode.FAILED) {
        this.dropped += spans.length;
        this.health.failed(result.error ? errorMessage(result.error) : "the export failed");
      } else this.health.succeeded();
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
