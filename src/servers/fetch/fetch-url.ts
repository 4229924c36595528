import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { BlockedAddressError, resolvePublicHost, type HostLookup } from "./address-guard.js";
import { nodeHttp, nodeHttps } from "../../core/node-http.js";

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
   * How names are resolved and where connections go; the real network when absent. Only code can
   * pass one (no flag, variable or config reaches it): tests stand a "public" page on a local server.
   */
  network?: FetchNetwork;
}

export interface FetchNetwork {
  lookup: HostLookup;
  /**
   * Where a connection to an address the guard accepted really goes; that address itself when
   * absent. Tests point a public test address at a local server.
   */
  route?: (address: string, port: number) => { address: string; port: number };
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `url`, following redirects by hand so every hop goes through the scheme check and the
 * address guard (fetch's own redirect handling would let a public page bounce to 127.0.0.1).
 * Each hop's name is resolved once, and the connection goes to the address that was checked:
 * letting the HTTP client resolve it again would let a name answer public to the guard and
 * private to the connection (DNS rebinding).
 */
export async function fetchDocument(url: string, options: FetchOptions): Promise<FetchedDocument> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let current = parseHttpUrl(url);
  try {
    for (let hop = 0; ; hop++) {
      const response = await get(current, options, signal);
      const location = response.headers.location;
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status) && location !== undefined) {
        response.destroy();
        if (hop >= MAX_REDIRECTS) {
          throw new FetchFailure(`${url} redirected more than ${MAX_REDIRECTS} times; giving up.`);
        }
        current = parseHttpUrl(new URL(location, current).href);
        continue;
      }
      if (status >= 400) {
        response.destroy();
        const reason = response.statusMessage ? ` ${response.statusMessage}` : "";
        throw new FetchFailure(`${current.href} answered HTTP ${status}${reason}.`);
      }
      const { body, cut } = await readCapped(decoded(response));
      return {
        finalUrl: current.href,
        status,
        contentType: response.headers["content-type"] ?? "",
        body,
        cut,
      };
    }
  } catch (error) {
    throw describeFailure(error, current, timeoutMs, signal);
  }
}

/** One GET, connected to the address the guard checked (by IP, so nothing resolves the name again). */
async function get(url: URL, options: FetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const bare = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const addresses = await resolvePublicHost(url.hostname, options.network?.lookup, options.allowPrivate);
  const [first] = addresses;
  if (first === undefined) throw Object.assign(new Error(`no address for ${bare}`), { code: "ENOTFOUND" });
  const defaultPort = url.protocol === "https:" ? 443 : 80;
  const target = (options.network?.route ?? ((address, port) => ({ address, port })))(
    first,
    url.port === "" ? defaultPort : Number(url.port),
  );
  const client = url.protocol === "https:" ? nodeHttps() : nodeHttp();
  return new Promise((resolve, reject) => {
    const request = client.request(
      {
        host: target.address,
        port: target.port,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        agent: false,
        // Credentials in the URL are sent as Basic auth, as curl does; never to another hop's host.
        ...(url.username !== "" || url.password !== ""
          ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }
          : {}),
        signal,
        // The certificate is checked against the name, not the address connected to.
        ...(url.protocol === "https:" && isIP(bare) === 0 ? { servername: bare } : {}),
        headers: {
          host: url.host,
          "user-agent": "mcpterm-fetch/0.1",
          accept: "*/*",
          "accept-encoding": "gzip, deflate, br",
        },
      },
      resolve,
    );
    request.on("error", reject);
    request.end();
  });
}

/** The body as the server meant it: compressed bodies are inflated (the cap counts inflated bytes). */
function decoded(response: IncomingMessage): Readable {
  const encoding = (response.headers["content-encoding"] ?? "").trim().toLowerCase();
  const inflate =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  if (inflate === undefined) return response;
  response.on("error", (error) => inflate.destroy(error));
  return response.pipe(inflate);
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

async function readCapped(stream: Readable): Promise<{ body: Uint8Array; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = MAX_BODY_BYTES - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      stream.destroy();
      return { body: Buffer.concat(chunks), cut: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), cut: false };
}

function describeFailure(error: unknown, url: URL, timeoutMs: number, signal: AbortSignal): FetchFailure {
  if (error instanceof FetchFailure) return error;
  if (error instanceof BlockedAddressError) return new FetchFailure(error.message, true);
  if (signal.aborted) {
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
