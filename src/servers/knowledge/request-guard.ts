import { createHash, timingSafeEqual } from "node:crypto";

export interface GuardSettings {
  /**
   * Bound to a loopback address: the Host header must name this machine too. A page on
   * evil.example whose name was rebound to 127.0.0.1 then sends `Host: evil.example` and is refused.
   */
  loopback: boolean;
  /** The bearer token every request must carry; undefined for none. */
  token: string | undefined;
}

export interface RequestHeaders {
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

/**
 * Whether one HTTP request may reach the MCP server. The MCP spec says servers must validate
 * Origin (against DNS rebinding): a request without one (every non-browser client) passes, a
 * page on this machine (localhost origins) or on the server's own origin passes, any other is 403.
 */
export function checkRequest(headers: RequestHeaders, settings: GuardSettings): GuardVerdict {
  const host = headers.host?.toLowerCase();
  if (settings.loopback && (host === undefined || !isLoopbackHost(hostName(host)))) {
    return {
      ok: false,
      status: 403,
      message: `Host ${JSON.stringify(headers.host ?? "")} is not this machine; this server answers only to localhost.`,
    };
  }
  if (headers.origin !== undefined && !originAllowed(headers.origin, host)) {
    return {
      ok: false,
      status: 403,
      message: `Origin ${JSON.stringify(headers.origin)} may not use this server (only localhost pages and the server's own origin may).`,
    };
  }
  if (settings.token !== undefined && !tokenMatches(headers.authorization, settings.token)) {
    return {
      ok: false,
      status: 401,
      message: "This server needs a bearer token (Authorization: Bearer <token>).",
    };
  }
  return { ok: true };
}

function originAllowed(origin: string, host: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // "null" (a sandboxed frame, a file:// page) and anything unparsable are cross-origin.
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return isLoopbackHost(url.hostname) || url.host.toLowerCase() === host;
}

/** "localhost:3001" -> "localhost", "[::1]:3001" -> "[::1]". */
function hostName(host: string): string {
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  return host.split(":")[0] ?? host;
}

/** Compared as hashes, in constant time: neither the length nor a prefix of the token leaks. */
function tokenMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  if (given === undefined) return false;
  const digest = (text: string): Buffer => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** Whether a host name or address means this machine (to bind to, or in a Host or Origin header). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d+\.\d+\.\d+$/.test(bare);
}
