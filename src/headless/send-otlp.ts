import { errorMessage, RuntimeError } from "../core/errors.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { tracesUrl } from "../core/telemetry/telemetry-settings.js";
import type { OtlpExport } from "../core/trace/trace-otlp.js";

/** A recorded trace is sent once, not retried: a collector that does not answer in this long failed. */
const SEND_TIMEOUT_MS = 10_000;

/**
 * POSTs an OTLP/JSON export to a collector (`/v1/traces` added to a base address), with the
 * headers live export would send, both as resolveTelemetry resolved them (a URL's user name and
 * password moved into Basic authorization). Returns the URL it went to; a refusal, a redirect
 * or an answer other than 2xx is a RuntimeError.
 */
export async function sendOtlp(
  exported: OtlpExport,
  endpoint: string,
  collectorHeaders: Record<string, string>,
): Promise<string> {
  const url = tracesUrl(endpoint);
  const headers = { ...collectorHeaders, "content-type": "application/json" };
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify(exported),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      // The spans and the collector's headers go to the address given, never on to another.
      redirect: "manual",
    });
  } catch (error) {
    throw new RuntimeError(
      `Could not send the spans to ${url}: ${failureWords(error)}; check that the collector listens there (OTLP/HTTP, usually port 4318).`,
    );
  }
  // The body is not read: a collector's answer may be large, and only its status matters.
  await response.body?.cancel();
  if (response.status >= 300 && response.status < 400) {
    const target = redirectTarget(response.headers.get("location"), url);
    throw new RuntimeError(
      target === undefined
        ? `The collector at ${url} answered with a redirect (HTTP ${response.status}) naming no address; the spans were not sent on — check the endpoint.`
        : `The collector at ${url} answered with a redirect (HTTP ${response.status}) to ${target}; the spans were not sent on — give that address if you trust it.`,
    );
  }
  if (!response.ok)
    throw new RuntimeError(
      `The collector at ${url} refused the spans (HTTP ${response.status}); check the endpoint and OTEL_EXPORTER_OTLP_HEADERS.`,
    );
  return url;
}

/**
 * Where a redirect points, for the person to judge: resolved against the address asked, without
 * a user name, password, query or fragment (which may carry a token), escapes made harmless.
 */
function redirectTarget(location: string | null, from: string): string | undefined {
  if (location === null || location.trim() === "") return undefined;
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    return undefined;
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return undefined;
  return sanitizeForTerminal(`${target.origin}${target.pathname}`);
}

/** Why fetch failed, with the system's reason it keeps as its cause (ECONNREFUSED, a timeout). */
function failureWords(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail =
    typeof cause?.code === "string"
      ? cause.code
      : typeof cause?.message === "string"
        ? cause.message
        : undefined;
  const words = errorMessage(error);
  return detail === undefined || words.includes(detail) ? words : `${words} (${detail})`;
}
