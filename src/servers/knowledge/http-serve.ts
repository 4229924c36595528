import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type McpServer,
} from "@modelcontextprotocol/server";
import { checkRequest, isLoopbackHost } from "./request-guard.js";
import { nodeHttp } from "../../core/node-http.js";

export const MCP_PATH = "/mcp";
/**
 * Sessions kept at once. A client that goes away without DELETE leaves its session behind, so
 * past this the least recently used one is closed (its client gets 404 and starts a new one, as
 * the spec asks) rather than turning new clients away for good.
 */
export const MAX_SESSIONS = 64;
/** The largest request body read: JSON-RPC requests to this server are small. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface HttpServeOptions {
  host: string;
  port: number;
  token: string | undefined;
  /** A new MCP server for each 2025 session or 2026 request; all of them share the knowledge base. */
  newServer: () => McpServer;
}

export interface HttpServing {
  url: string;
  /** The servers of the 2025 sessions open now, e.g. to send them a log line. */
  servers(): McpServer[];
  /** Tells every client the resource list changed: 2025 sessions and 2026 subscriptions alike. */
  resourcesChanged(): void;
  close(): Promise<void>;
}

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: McpServer;
}

/**
 * Serves MCP over Streamable HTTP at `/mcp`, to clients of both revisions. A 2026-07-28 request
 * carries everything in itself and is answered by a fresh server; a 2025 client opens a session
 * with initialize and keeps one server for it, so what it set there (its log level) holds. Every
 * request passes the guard first (Host, Origin, bearer token), so nothing of the protocol
 * answers a refused request.
 */
export async function serveHttp(options: HttpServeOptions): Promise<HttpServing> {
  const sessions = new Map<string, Session>();
  // Strict about 2026: a 2025 request never reaches it, it is routed to the sessions below.
  const modern = createMcpHandler(() => options.newServer(), { legacy: "reject" });
  const serveModern = toNodeHandler(modern);
  const settings = { loopback: isLoopbackHost(options.host), token: options.token };

  /** Answers one request; returns the refusal to send when the protocol is not reached. */
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<Refusal | undefined> => {
    const verdict = checkRequest(
      { host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization },
      settings,
    );
    if (!verdict.ok) {
      const headers: Record<string, string> =
        verdict.status === 401 ? { "www-authenticate": 'Bearer realm="mcpterm"' } : {};
      return { status: verdict.status, message: verdict.message, headers };
    }
    if (new URL(req.url ?? "/", "http://localhost").pathname !== MCP_PATH) {
      return { status: 404, message: `Not found; the MCP endpoint is ${MCP_PATH}.` };
    }
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (!session) return { status: 404, message: "Session not found; initialize a new one.", code: -32001 };
      // Map order is use order: the first entry is the least recently used.
      sessions.delete(id);
      sessions.set(id, session);
      await session.transport.handleRequest(req, res);
      return undefined;
    }
    // Without a session, only POST means anything: a 2026-07-28 client never opens a stream
    // (GET) or ends a session (DELETE), and the revision asks for 405 when one does; a 2025
    // client's GET or DELETE names its session, and was answered above.
    if (req.method !== "POST") {
      return {
        status: 405,
        message: `${req.method ?? "This method"} needs the Mcp-Session-Id of a session opened with initialize; without one, send requests with POST.`,
        headers: { allow: "POST" },
      };
    }
    const read = await readJson(req);
    if (!read.ok) return { status: read.status, message: read.message, code: -32700 };
    const body = read.value;
    // Which revision asks decides who answers: the SDK's own classification (envelope, headers).
    if (!(await isLegacyRequest(await toWebRequest(req, body), body))) {
      await serveModern(req, res, body);
      return undefined;
    }
    if (!isInitializeRequest(body)) {
      return { status: 400, message: "No session: the first request must be initialize." };
    }
    for (const [oldest, session] of sessions) {
      if (sessions.size < MAX_SESSIONS) break;
      sessions.delete(oldest);
      await session.server.close();
    }
    const server = options.newServer();
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, { transport, server }),
      onsessionclosed: (sessionId) => void sessions.delete(sessionId),
    });
    // Not server.close() here: closing the server closes the transport, which would call this again.
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    return undefined;
  };

  const http: Server = nodeHttp().createServer((req, res) => {
    handle(req, res).then(
      (refusal) => {
        if (refusal) reply(res, refusal);
      },
      (error: unknown) => {
        const message = `Internal error: ${error instanceof Error ? error.message : String(error)}`;
        if (res.headersSent) res.end();
        else reply(res, { status: 500, message });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const hostPart = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${hostPart}:${address.port}${MCP_PATH}`,
    servers: () => [...sessions.values()].map((session) => session.server),
    resourcesChanged() {
      for (const { server } of sessions.values())
        if (server.isConnected()) server.server.sendResourceListChanged().catch(() => undefined);
      modern.notify.resourcesChanged();
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all([modern.close(), ...open.map((session) => session.server.close())]);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
  code?: number;
}

/** A JSON-RPC error body (id null) with an HTTP status, as the SDK's own transport answers. */
function reply(res: ServerResponse, refusal: Refusal): void {
  res.writeHead(refusal.status, { "content-type": "application/json", ...refusal.headers });
  res.end(
    JSON.stringify({
      jsonrpc: "2.0",
      error: { code: refusal.code ?? -32000, message: refusal.message },
      id: null,
    }),
  );
}

type JsonBody = { ok: true; value: unknown } | { ok: false; status: number; message: string };

async function readJson(req: IncomingMessage): Promise<JsonBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const piece = chunk as Buffer;
    size += piece.length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, message: "The request body is too large." };
    chunks.push(piece);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown };
  } catch {
    return { ok: false, status: 400, message: "The request body is not JSON." };
  }
}
