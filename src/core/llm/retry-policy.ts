/**
 * Which model-endpoint failures are worth retrying, and how long to wait first. Pure: the clock
 * and the jitter source are parameters, so table tests pin every case.
 */

export type RequestFailure =
  | { type: "http"; status: number }
  /** The request never got a whole HTTP answer; `code` is Node's (ECONNREFUSED, HPE_…) when known. */
  | { type: "network"; code: string | undefined }
  | { type: "timeout" };

export interface RetryDelayOptions {
  /** Delay before the first retry, doubled for each later one. */
  baseDelayMs?: number;
  /** No wait is ever longer than this; a server asking for more is not retried at all. */
  maxRetryDelayMs?: number;
  /** Returns a number in [0, 1); injectable so tests are deterministic. */
  random?: () => number;
  /** Milliseconds since the epoch, for `Retry-After` given as an HTTP date. */
  now?: number;
}

export const DEFAULT_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_RETRY_DELAY_MS = 20_000;

const RETRYABLE_STATUS = new Set([408, 409, 429]);

/** Network codes that say "try again"; a DNS miss or a bad certificate will not fix itself. */
const PERMANENT_NETWORK_CODES = new Set([
  "ENOTFOUND",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

export function isRetryable(failure: RequestFailure): boolean {
  switch (failure.type) {
    case "http":
      return RETRYABLE_STATUS.has(failure.status) || failure.status >= 500;
    case "network":
      return failure.code === undefined || !PERMANENT_NETWORK_CODES.has(failure.code);
    case "timeout":
      return true;
  }
}

/** Response headers by name (`Headers`, or a response of endpoint-http.ts), or a plain record. */
export type HeaderSource = HeaderLookup | Record<string, string | undefined> | undefined;

interface HeaderLookup {
  get(name: string): string | null | undefined;
}

/** Either how long to wait before the next try, or that the server asked for longer than we wait. */
export type RetryWait = { kind: "wait"; delayMs: number } | { kind: "too_long"; askedMs: number };

/**
 * The wait before retry number `attempt` (1 for the first retry). A server's `retry-after-ms` or
 * `retry-after` wins over backoff; when it asks for more than the cap, waiting the cap would only
 * be refused again, so the answer is to stop and say what the server asked for.
 */
export function planRetryWait(
  attempt: number,
  headers: HeaderSource,
  options: RetryDelayOptions = {},
): RetryWait {
  const cap = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  const asked = serverRetryAfterMs(headers, options.now ?? Date.now());
  if (asked !== undefined) {
    return asked > cap ? { kind: "too_long", askedMs: asked } : { kind: "wait", delayMs: asked };
  }
  return { kind: "wait", delayMs: backoffDelayMs(attempt, options) };
}

/** Exponential backoff with jitter, for failures that came without a server-requested wait. */
export function backoffDelayMs(attempt: number, options: RetryDelayOptions = {}): number {
  const cap = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  const base = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const backoff = Math.min(base * 2 ** Math.max(0, attempt - 1), cap);
  // Jitter shaves up to a quarter off, so clients that failed together do not retry together.
  const random = options.random ?? Math.random;
  return Math.round(backoff * (1 - 0.25 * random()));
}

/** What the server asked for, in milliseconds, or undefined when it asked for nothing usable. */
export function serverRetryAfterMs(headers: HeaderSource, now: number): number | undefined {
  const ms = Number.parseFloat(headerValue(headers, "retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);

  const retryAfter = headerValue(headers, "retry-after")?.trim();
  if (retryAfter === undefined || retryAfter === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.ceil(Number.parseFloat(retryAfter) * 1000);
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** A header's value by its lower-case name, whatever holds the headers. */
function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (headers === undefined) return undefined;
  // Not `instanceof Headers`: reading that global would load Node's fetch for nothing.
  if (isLookup(headers)) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function isLookup(headers: NonNullable<HeaderSource>): headers is HeaderLookup {
  return typeof headers.get === "function";
}
