import {
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import type { ServerAuth } from "../oauth/server-auth.js";
import { capResponseBodies } from "./response-size-cap.js";
import { guardUnansweredStreams } from "./unanswered-stream-guard.js";

/**
 * Streamable HTTP with the entry's headers and, where the server may need it, OAuth; a response
 * stream closed unanswered fails its call, and no response may outgrow one message.
 */
export function streamableHttpTransport(
  url: string,
  headers: Record<string, string>,
  auth: ServerAuth | undefined,
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    fetch: guardUnansweredStreams(capResponseBodies(auth ? auth.fetch(fetch) : fetch)),
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
  const transport: Transport = new SSEClientTransport(new URL(url), {
    requestInit: { headers },
    fetch: capResponseBodies(auth ? auth.fetch(fetch) : fetch, {
      // Every answer comes on the one stream just stopped: the connection is closed, so the calls
      // out fail now (as over a lost connection) rather than wait out their timeouts.
      onOversized: () => void transport.close(),
    }),
    ...(auth ? { authProvider: auth.provider } : {}),
  });
  return transport;
}

/**
 * A Streamable HTTP server's 404. For a 2025 request that carried a session id it means the
 * session is gone; the caller knows whether one was carried (2026 servers have no sessions).
 */
export function isHttpNotFound(error: unknown): boolean {
  return error instanceof SdkHttpError && error.status === 404;
}
