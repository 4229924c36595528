import {
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  UnsupportedProtocolVersionError,
  type Client,
  type PriorDiscovery,
  type VersionNegotiationOptions,
} from "@modelcontextprotocol/client";
import type { ProtocolSetting } from "../config/config-types.js";
import { sanitizeOneLine } from "../policy/sanitize-terminal.js";
import { readableServerMessage } from "../text/readable-server-message.js";

/**
 * Which of the two families of MCP revisions a server speaks, in the spec's own words: `legacy`
 * revisions open with an `initialize` handshake and keep a session (2025-11-25 and before);
 * `modern` ones carry the version, capabilities and client in every request (2026-07-28).
 */
export type ProtocolEra = "legacy" | "modern";

/** The modern revision mcpterm speaks. */
export const MODERN_REVISION = "2026-07-28";
/** Where a 2026-07-28 request carries the revision it speaks, in its `_meta`. */
export const PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion";

/** The longest a stdio server is given to answer the probe before it counts as a 2025 server. */
const STDIO_PROBE_MS = 5000;

export type TransportKind = "stdio" | "http" | "sse";

/**
 * How the client settles the revision with one server. This is the one place that decides it:
 *
 * - `auto` probes with `server/discover`: a server that answers it speaks 2026-07-28; one that
 *   refuses it, or on stdio says nothing within a few seconds, gets the 2025 `initialize`. A 401
 *   or 403 is a sign-in to do, never a reason to fall back (the SDK keeps them apart), and an
 *   HTTP server that says nothing is down, not old.
 * - a pinned revision speaks only that one, to test a server against it.
 * - the legacy HTTP+SSE transport predates 2026-07-28: always 2025.
 */
export function versionNegotiation(
  setting: ProtocolSetting,
  kind: TransportKind,
  startupTimeoutMs: number,
): VersionNegotiationOptions {
  if (kind === "sse" || setting === "2025-11-25") return { mode: "legacy" };
  if (setting === MODERN_REVISION) return { mode: { pin: MODERN_REVISION } };
  const timeoutMs =
    kind === "stdio" ? Math.min(STDIO_PROBE_MS, Math.floor(startupTimeoutMs / 2)) : startupTimeoutMs;
  return { mode: "auto", probe: { timeoutMs } };
}

/** What was settled with a connected server. */
export interface NegotiatedProtocol {
  era: ProtocolEra;
  version: string | undefined;
}

export function negotiatedProtocol(client: Client): NegotiatedProtocol {
  return {
    era: client.getProtocolEra() === "modern" ? "modern" : "legacy",
    version: client.getNegotiatedProtocolVersion(),
  };
}

/** "2026-07-28 (modern)", as `/mcp`, `mcpterm tools` and the trace show it. */
export function describeProtocol(server: {
  era?: ProtocolEra | undefined;
  protocolVersion?: string | undefined;
}): string {
  const version = server.protocolVersion ?? "unknown revision";
  return server.era ? `${version} (${server.era})` : version;
}

/**
 * Why the revision could not be settled, in one sentence, or undefined when `error` is about
 * something else. Says where a pinned revision came from, since that is what to change.
 */
export function negotiationFailure(error: unknown, setting: ProtocolSetting): string | undefined {
  const pinned =
    setting === "auto"
      ? ""
      : ` (the entry's "protocol", or --protocol, pins ${setting}; "auto" lets mcpterm ask)`;
  if (error instanceof UnsupportedProtocolVersionError)
    return `the server does not speak ${error.requested}; it speaks ${error.supported.join(", ")}${pinned}`;
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed)
    return `${probeFailure(error) ?? error.message.replace(/^Version negotiation failed: /, "the revision could not be settled: ")}${pinned}`;
  // The server's words, cut short: a version is a date, not a page.
  const answered =
    error instanceof Error ? INITIALIZE_VERSION.exec(error.message)?.[1]?.slice(0, 40) : undefined;
  if (answered !== undefined)
    return `its initialize answer names protocol version ${JSON.stringify(answered)}, which is no 2025 revision: ${
      answered === MODERN_REVISION
        ? `${MODERN_REVISION} is settled by server/discover, which a server of that revision answers; initialize names a 2025 revision (2025-11-25 or older)`
        : `initialize settles 2025-11-25 and the 2025 revisions before it, server/discover settles ${MODERN_REVISION}`
    }${pinned}`;
  return undefined;
}

/** The SDK's words for an initialize answer naming a revision it cannot speak over initialize. */
const INITIALIZE_VERSION = /^Server's protocol version is not supported: (.*)$/;

/** How every sentence for a URL nothing answered at begins (doctor's spawn step reads it so). */
export const NOT_REACHED = "the server could not be reached";
/** What to check when a URL answered, but not as an MCP endpoint. */
export const CHECK_ENDPOINT_PATH = "check the URL: its path must be the server's MCP endpoint (often /mcp)";

/** Why fetch fails before any answer, as Node's undici says it (`fetch failed`, the code in its cause). */
const NETWORK_FAILURES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "nothing is listening there (connection refused)",
  ENOTFOUND: "its host name does not resolve (ENOTFOUND)",
  EAI_AGAIN: "its host name could not be resolved now (EAI_AGAIN)",
  ECONNRESET: "the connection was reset before an answer came (ECONNRESET)",
  ETIMEDOUT: "the connection timed out (ETIMEDOUT)",
  EHOSTUNREACH: "its host cannot be reached (EHOSTUNREACH)",
  ENETUNREACH: "its network cannot be reached (ENETUNREACH)",
  UND_ERR_SOCKET:
    "the connection closed before an answer came (if the server speaks https, the URL must begin https://; else check the port)",
  UND_ERR_HEADERS_OVERFLOW:
    "its answer's headers are larger than Node reads (UND_ERR_HEADERS_OVERFLOW): a fault of the server or of a proxy in front of it",
};

/**
 * An answer undici could not read as HTTP/1.1. With no HTTP status line at all (`Expected HTTP/`),
 * something else listens there (an https:// server on a plain http:// URL, ssh, a database): the
 * URL is what to check. Otherwise the server answered HTTP, wrongly (a header holding a control
 * character): its fault, or a proxy's.
 */
export function malformedHttpAnswer(error: unknown): { notHttp: boolean; sentence: string } | undefined {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (cause.name !== "HTTPParserError" && !(typeof code === "string" && code.startsWith("HPE_"))) continue;
    // "Response does not match the HTTP/1.1 protocol (Invalid header value char)": the reason.
    const reason = sanitizeOneLine(/\(([^()]+)\)\s*$/.exec(cause.message)?.[1] ?? cause.message).slice(
      0,
      160,
    );
    return reason.startsWith("Expected HTTP/")
      ? {
          notHttp: true,
          sentence: `what answers at that address does not speak HTTP (${reason}): check the URL's port and scheme (an https:// server there, or another service?)`,
        }
      : {
          notHttp: false,
          sentence: `its answer is not valid HTTP/1.1 (${reason}): a fault of the server or of a proxy in front of it`,
        };
  }
  return undefined;
}

/**
 * Why a request could not reach a remote server or its answer could not come back, from the
 * codes in `error`'s causes (undici says only `fetch failed`), or undefined for anything else.
 */
export function networkFailure(error: unknown): string | undefined {
  const malformed = malformedHttpAnswer(error);
  if (malformed) return malformed.sentence;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const known = typeof code === "string" ? NETWORK_FAILURES[code] : undefined;
    if (known) return known;
  }
  return error instanceof TypeError && error.message === "fetch failed"
    ? "the connection failed before an answer came (fetch failed)"
    : undefined;
}

/**
 * The probe's failures the SDK words for a library (`fetch failed`, a validation error's whole
 * issue tree) in a sentence for the server's author: where it could not connect, or that the
 * answer was not JSON-RPC at all.
 */
function probeFailure(error: SdkError): string | undefined {
  if (error instanceof SdkHttpError && error.status >= 500) {
    const { text } = error.data as { text?: unknown };
    const said = typeof text === "string" ? readableServerMessage(text) : undefined;
    return `the server answered the server/discover probe with HTTP ${error.status}${said ? `: ${said}` : ""}`;
  }
  if (!error.message.startsWith("Version negotiation probe failed: ")) return undefined;
  const contentType = /Unexpected content type: ([^)\s]+)/.exec(error.message)?.[1];
  if (contentType)
    return `the server answered the server/discover probe with ${contentType}, not JSON-RPC; ${CHECK_ENDPOINT_PATH}`;
  const malformed = malformedHttpAnswer(error);
  if (malformed)
    return malformed.notHttp
      ? malformed.sentence
      : `the server answered the server/discover probe, but ${malformed.sentence}`;
  for (let cause: unknown = error.cause; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const known = typeof code === "string" ? NETWORK_FAILURES[code] : undefined;
    if (known) return `${NOT_REACHED}: ${known}`;
    // OpenSSL's own words are a line of file names and offsets: its code says it better.
    if (typeof code === "string" && code.startsWith("ERR_SSL_"))
      return `${NOT_REACHED} over TLS (${code})${code === "ERR_SSL_WRONG_VERSION_NUMBER" ? ": nothing speaks TLS there; is it an https:// URL for a plain http port?" : ""}`;
    if (
      typeof code === "string" &&
      /^(?:E[A-Z]+|UND_ERR_[A-Z_]+|ERR_TLS_[A-Z_]+|[A-Z_]*CERT[A-Z_]*)$/.test(code)
    )
      return `${NOT_REACHED}: ${cause.message.split("\n")[0] ?? ""} (${code})`;
    // fetch refuses the ports the Fetch standard blocks (6000, 6665-6669, 10080…) without trying.
    if (cause.message === "bad port")
      return `${NOT_REACHED}: fetch refuses to connect to that port (one the Fetch standard blocks, such as 6000 or 10080); serve the endpoint on another port`;
    // zod's issue tree: the reply parsed as JSON, but as no JSON-RPC message.
    if (Array.isArray((cause as { issues?: unknown }).issues))
      return "the server answered the server/discover probe with JSON that is not a JSON-RPC message (a JSON-RPC 2.0 response with this request's id was expected)";
  }
  return undefined;
}

/**
 * Whether a Streamable HTTP url that failed may be tried over the legacy HTTP+SSE transport,
 * which speaks only 2025: not for a server pinned to 2026, which must not be heard in 2025.
 */
export function mayFallBackToSse(setting: ProtocolSetting | undefined): boolean {
  return setting !== MODERN_REVISION;
}

/** What the client is told before connecting again to a stdio server that closed on the probe. */
export const LEGACY_PRIOR: PriorDiscovery = { kind: "legacy" };

/**
 * A stdio server that ended its process on the server/discover probe (some servers built on
 * SDKs that stop at any request before initialize do): a 2025 server, to be started again and
 * spoken to in 2025 without asking.
 */
export function closedOnProbe(error: unknown): boolean {
  return (
    error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    error.message.includes("the connection closed during the server/discover probe")
  );
}
