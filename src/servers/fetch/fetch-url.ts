import { assertPublicHost, BlockedAddressError, type HostLookup } from "./address-guard.js";

export const MAX_REDIRECTS = 5;
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
export const FETCH_TIMEOUT_MS = 30_000;

/** A fetch that failed for a reason the model should read: one sentence, no stack. */
export class FetchFailure extends Error {
  constructor(
    message: string,
    /** The address guard refused it (a loopback, private or link-local address). */
    readonly blocked = false,
  ) {
    super(message);
  }
}

export interface FetchedDocument {
  finalUrl: string;
  status: number;
  contentType: string;
  body: Uint8Array;
  /** True when the body was longer than MAX_BODY_BYTES and was cut there. */
  cut: boolean;
}

export interface FetchOptions {
  /** Skip the address guard, for tests and for people who want their own network reachable. */
  allowPrivate: boolean;
  timeoutMs?: number;
  /**
   * How names are resolved and requests sent; the real network when absent. Only code can pass
   * one (no flag, variable or config reaches it): tests stand a "public" page on a local server.
   */
  network?: { lookup: HostLookup; fetch: typeof fetch };
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `url`, following redirects by hand so every hop goes through the scheme check and the
 * address guard (fetch's own redirect handling would let a public page bounce to 127.0.0.1).
 */
export async function fetchDocument(url: string, options: FetchOptions): Promise<FetchedDocument> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let current = parseHttpUrl(url);
  try {
    for (let hop = 0; ; hop++) {
      if (!options.allowPrivate) await assertPublicHost(current.hostname, options.network?.lookup);
      const response = await (options.network?.fetch ?? fetch)(current, {
        redirect: "manual",
        signal,
        headers: { "user-agent": "mcpterm-fetch/0.1", accept: "*/*" },
      });
      const location = response.headers.get("location");
      if (REDIRECT_STATUSES.has(response.status) && location !== null) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) {
          throw new FetchFailure(`${url} redirected more than ${MAX_REDIRECTS} times; giving up.`);
        }
        current = parseHttpUrl(new URL(location, current).href);
        continue;
      }
      if (response.status >= 400) {
        await response.body?.cancel();
        const reason = response.statusText ? ` ${response.statusText}` : "";
        throw new FetchFailure(`${current.href} answered HTTP ${response.status}${reason}.`);
      }
      const { body, cut } = await readCapped(response);
      return {
        finalUrl: current.href,
        status: response.status,
        contentType: response.headers.get("content-type") ?? "",
        body,
        cut,
      };
    }
  } catch (error) {
    throw describeFailure(error, current, timeoutMs);
  }
}

function parseHttpUrl(text: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new FetchFailure(
      `${JSON.stringify(text)} is not a valid URL; pass an absolute http:// or https:// URL.`,
    );
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new FetchFailure(`Only http:// and https:// URLs can be fetched, got ${parsed.protocol}//.`);
  }
  return parsed;
}

async function readCapped(response: Response): Promise<{ body: Uint8Array; cut: boolean }> {
  if (!response.body) return { body: new Uint8Array(), cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  // @types/node types fetch bodies as ReadableStream<any>; they are byte streams.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { body: Buffer.concat(chunks), cut: false };
    const room = MAX_BODY_BYTES - size;
    if (value.length > room) {
      chunks.push(value.subarray(0, room));
      await reader.cancel();
      return { body: Buffer.concat(chunks), cut: true };
    }
    chunks.push(value);
    size += value.length;
  }
}

function describeFailure(error: unknown, url: URL, timeoutMs: number): FetchFailure {
  if (error instanceof FetchFailure) return error;
  if (error instanceof BlockedAddressError) return new FetchFailure(error.message, true);
  if (error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return new FetchFailure(`${url.href} did not answer within ${timeoutMs / 1000} seconds.`);
  }
  const code = errorCode(error) ?? errorCode(error instanceof Error ? error.cause : undefined);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new FetchFailure(`Could not resolve the host ${url.hostname}; check the address.`);
  }
  if (code === "ECONNREFUSED") return new FetchFailure(`${url.host} refused the connection.`);
  const detail =
    error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
  return new FetchFailure(`Fetching ${url.href} failed: ${detail || String(error)}.`);
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}
