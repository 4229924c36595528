/**
 * One HTTP request to the model endpoint over node:http(s): a limit on the wait for the response's
 * headers, the caller's abort signal, and the body read as UTF-8 text as it arrives.
 *
 * Not fetch: loading Node's fetch (undici, its `Headers` included) takes about 35 ms, a fifth of
 * what `mcpterm -p` spent before its first request (issue 29); and node:http comes through
 * node-http.ts, whose way of loading it does not load undici either.
 */
import type { ClientRequest, IncomingMessage, RequestOptions } from "node:http";
import { nodeHttp, nodeHttps } from "../node-http.js";

/** How long the rest of a body read no further may take to end before its connection is dropped. */
const DRAIN_MS = 1_000;

export interface EndpointRequest {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal | undefined;
  /** From sending the request to the response's headers. */
  timeoutMs: number;
}

/** The response's headers did not come within the request's limit. */
export class EndpointTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
    this.name = "EndpointTimeoutError";
  }
}

/** The connection failed or broke; `code` is Node's (ECONNREFUSED, ECONNRESET, ENOTFOUND...). */
export class EndpointConnectionError extends Error {
  readonly code: string | undefined;
  constructor(cause: unknown) {
    const code = errorCode(cause);
    super(code ?? (cause instanceof Error ? cause.message : "connection failed"), { cause });
    this.name = "EndpointConnectionError";
    this.code = code;
  }
}

/** What an aborted request or body read throws: the caller's signal said stop. */
export function abortError(signal: AbortSignal): Error {
  const error = new Error("The request was aborted.", { cause: signal.reason });
  error.name = "AbortError";
  return error;
}

/** A header of the response, by its lower-case name; several values come joined with ", ". */
export interface ResponseHeaders {
  get(name: string): string | undefined;
}

export interface EndpointResponse {
  status: number;
  /** A 2xx status. */
  ok: boolean;
  headers: ResponseHeaders;
  /** The body as text as it arrives; throws EndpointConnectionError if the connection breaks. */
  chunks(): AsyncIterable<string>;
  /** The whole body, or undefined once it passes `maxBytes` (the rest is not read). */
  readAll(maxBytes: number): Promise<string | undefined>;
  /** Done with the response: a body read to its end leaves the connection to the next request; any other drops it. */
  close(): void;
}

/**
 * Sends `request`, resolving with the response once its headers arrive. Rejects with
 * EndpointTimeoutError, EndpointConnectionError, or an AbortError when `request.signal` aborts.
 */
export function sendToEndpoint(request: EndpointRequest): Promise<EndpointResponse> {
  const { signal } = request;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) throw abortError(signal);
    const url = new URL(request.url);
    const transport: {
      request(
        url: URL,
        options: RequestOptions,
        callback: (response: IncomingMessage) => void,
      ): ClientRequest;
    } = url.protocol === "https:" ? nodeHttps() : nodeHttp();
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
    let outgoing: ClientRequest | undefined;
    let settled = false;
    // After the headers, the request's own errors (the parser's HPE_* codes) say why a body broke.
    let lateError: Error | undefined;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      return true;
    };
    const fail = (error: Error): void => {
      if (!settle()) return;
      outgoing?.destroy();
      reject(error);
    };
    const onAbort = (): void => {
      fail(abortError(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      fail(new EndpointTimeoutError(request.timeoutMs));
    }, request.timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      outgoing = transport.request(url, { method: request.method, headers }, (incoming) => {
        if (settle()) resolve(endpointResponse(incoming, signal, () => lateError));
        else incoming.destroy();
      });
    } catch (error) {
      // A header Node refuses (a key with a line break in it) throws here, before any connection.
      fail(new EndpointConnectionError(error));
      return;
    }
    outgoing.on("error", (error) => {
      if (settled) lateError = error;
      else fail(new EndpointConnectionError(error));
    });
    outgoing.end(request.body);
  });
}

function endpointResponse(
  incoming: IncomingMessage,
  signal: AbortSignal | undefined,
  lateError: () => Error | undefined,
): EndpointResponse {
  incoming.setEncoding("utf8");
  let aborted: Error | undefined;
  const onAbort = (): void => {
    aborted = abortError(signal as AbortSignal);
    incoming.destroy(aborted);
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  const stopListening = (): void => signal?.removeEventListener("abort", onAbort);
  incoming.once("close", stopListening);

  async function* chunks(): AsyncGenerator<string> {
    let failed = false;
    try {
      // Not destroyed when the reader stops early (at [DONE]): release() may keep the connection.
      for await (const chunk of incoming.iterator({ destroyOnReturn: false })) yield chunk as string;
    } catch (error) {
      failed = true;
      if (aborted) throw aborted;
      throw new EndpointConnectionError(lateError() ?? error);
    } finally {
      if (failed) incoming.destroy();
      else await release();
    }
    // A body cut short without an error event (the peer closed mid-chunk) is a broken connection.
    if (!incoming.complete) throw new EndpointConnectionError(lateError() ?? connectionClosed());
  }

  /**
   * Done with the body: a body read to its end leaves its connection to the next request
   * (keep-alive saves each step of a turn a TCP and TLS handshake); what is left of one is
   * drained for a moment, then the connection dropped.
   */
  async function release(): Promise<void> {
    stopListening();
    if (incoming.destroyed) return;
    if (incoming.complete) {
      // Its end is already here: waiting for it frees the connection before the next request.
      if (!incoming.readableEnded) {
        const ended = new Promise<void>((resolve) => {
          incoming
            .once("end", resolve)
            .once("close", resolve)
            .once("error", () => resolve());
        });
        incoming.resume();
        await ended;
      }
      return;
    }
    incoming.on("error", () => undefined);
    const drop = setTimeout(() => incoming.destroy(), DRAIN_MS);
    drop.unref();
    incoming.once("end", () => clearTimeout(drop));
    incoming.resume();
  }

  const status = incoming.statusCode ?? 0;
  return {
    status,
    ok: status >= 200 && status <= 299,
    headers: {
      get(name) {
        const value = incoming.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(", ") : value;
      },
    },
    chunks,
    async readAll(maxBytes) {
      let text = "";
      let bytes = 0;
      for await (const chunk of chunks()) {
        bytes += Buffer.byteLength(chunk);
        if (bytes > maxBytes) {
          incoming.destroy();
          return undefined;
        }
        text += chunk;
      }
      return text;
    },
    close() {
      stopListening();
      if (incoming.complete) incoming.resume();
      else incoming.destroy();
    },
  };
}

function connectionClosed(): Error {
  return Object.assign(new Error("the connection closed before the response ended"), { code: "ECONNRESET" });
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}
