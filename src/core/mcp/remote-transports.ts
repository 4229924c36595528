import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ServerAuth } from "../oauth/server-auth.js";
import { guardUnansweredStreams } from "./unanswered-stream-guard.js";

/**
 * Streamable HTTP with the entry's headers and, where the server may need it, OAuth; a response
 * stream closed unanswered fails its call.
 */
export function streamableHttpTransport(
  url: string,
  headers: Record<string, string>,
  auth: ServerAuth | undefined,
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    fetch: guardUnansweredStreams(auth ? auth.fetch(fetch) : fetch),
    ...(auth ? { authProvider: auth.provider } : {}),
  });
}

/** The legacy HTTP+SSE transport, for servers that predate Streamable HTTP. */
export function legacySseTransport(
  url: string,
  headers: Record<string, string>,
  auth: ServerAuth | undefined,
): Transport {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- still the only way to reach servers that predate Streamable HTTP.
  return new SSEClientTransport(new URL(url), {
    requestInit: { headers },
    ...(auth ? { authProvider: auth.provider, fetch: auth.fetch(fetch) } : {}),
  });
}

/** A Streamable HTTP server's 404 for a request that carried a session id: the session is gone. */
export function isExpiredSession(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 404;
}
