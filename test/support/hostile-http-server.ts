import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/**
 * A Streamable HTTP MCP server (with sessions) that misbehaves on request, for the transport
 * fault tests: `get_dropped` answers its tools/call with an SSE stream that it closes without a
 * response; `get_severed` resets the connection its tools/call came on; `get_lost` does the same after an event id that says the stream may be resumed, and
 * then fails every attempt to resume it, as a server that went away mid-call; `forgetSessions()` makes it forget every session, so the next request's session id
 * gets 404, as a restarted server would answer; `forgetOnce` does that at a chosen moment.
 */
export interface HostileHttpServer {
  url: string;
  /** initialize requests received, in order. */
  initializes: number;
  /** tools/call requests received, by tool name (a call answered 404 included). */
  calls: string[];
  /** tools/call requests a tool actually ran, by tool name. */
  handled: string[];
  forgetSessions(): void;
  /**
   * Forget every session once, at the next request after initialize (`"initialize"`: the
   * server restarted right after it) or at the next tools/call (`"call"`: mid-session).
   */
  forgetOnce(when: "initialize" | "call"): void;
  /** Forget the session on every request from now on (a server that never keeps one). */
  forgetAlways(): void;
  close(): Promise<void>;
}

/** The event id of get_lost's stream, which no attempt to resume from succeeds. */
const LOST_EVENT_ID = "lost-1";

export async function startHostileHttpServer(): Promise<HostileHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let forgetEveryTime = false;
  let forgetAt: "initialize" | "call" | undefined;
  const state: Omit<HostileHttpServer, "url" | "close"> = {
    initializes: 0,
    calls: [],
    handled: [],
    forgetSessions: () => {
      sessions.clear();
    },
    forgetOnce: (when) => {
      forgetAt = when;
    },
    forgetAlways: () => {
      forgetEveryTime = true;
    },
  };

  const mcp = (): McpServer => {
    const server = new McpServer({ name: "hostile-http", version: "1.0.0" });
    server.registerTool(
      "echo",
      {
        description: "Echo the text.",
        inputSchema: { text: z.string() },
        annotations: { readOnlyHint: true },
      },
      ({ text }) => {
        state.handled.push("echo");
        return { content: [{ type: "text", text }] };
      },
    );
    server.registerTool(
      "save_record",
      { description: "Save a record.", annotations: { destructiveHint: true } },
      () => {
        state.handled.push("save_record");
        return { content: [{ type: "text", text: "saved" }] };
      },
    );
    server.registerTool(
      "get_lost",
      { description: "Never answers: its resumable stream is lost.", annotations: { readOnlyHint: true } },
      () => ({ content: [{ type: "text", text: "unreachable" }] }),
    );
    server.registerTool(
      "get_severed",
      { description: "Never answers: its connection is reset.", annotations: { readOnlyHint: true } },
      () => ({ content: [{ type: "text", text: "unreachable" }] }),
    );
    server.registerTool(
      "get_page",
      { description: "Answered by a proxy's sign-in page.", annotations: { readOnlyHint: true } },
      () => ({ content: [{ type: "text", text: "unreachable" }] }),
    );
    server.registerTool(
      "get_dropped",
      { description: "Never answers: its stream is closed first.", annotations: { readOnlyHint: true } },
      () => ({ content: [{ type: "text", text: "unreachable" }] }),
    );
    return server;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body: unknown = request.method === "POST" ? JSON.parse(await readBody(request)) : undefined;
    const message = body as { method?: string; params?: { name?: string } } | undefined;
    if (message?.method === "initialize") state.initializes += 1;
    if (message?.method === "tools/call") state.calls.push(message.params?.name ?? "");
    if (message?.method === "tools/call" && message.params?.name === "get_dropped") {
      // SSE headers, then the end of the stream: no response, no event id to resume from.
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      response.end();
      return;
    }
    if (message?.method === "tools/call" && message.params?.name === "get_page") {
      // A proxy in front of the server answering with its own page, status 200.
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end("<html><title>Sign in</title></html>");
      return;
    }
    if (message?.method === "tools/call" && message.params?.name === "get_severed") {
      // The connection dropped mid-request (a proxy restarted, the network went): no answer at all.
      request.socket.resetAndDestroy();
      return;
    }
    if (message?.method === "tools/call" && message.params?.name === "get_lost") {
      // An event id first: the client may resume the stream from it, and tries to.
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      response.end(`id: ${LOST_EVENT_ID}\ndata: \n\n`);
      return;
    }
    if (request.method === "GET" && request.headers["last-event-id"] === LOST_EVENT_ID) {
      response.writeHead(500).end();
      return;
    }
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      if (forgetEveryTime && message?.method !== "initialize") sessions.clear();
      if (forgetAt === "initialize" || (forgetAt === "call" && message?.method === "tools/call")) {
        forgetAt = undefined;
        sessions.clear();
      }
      const known = sessions.get(sessionId);
      if (!known) {
        response.writeHead(404, { "content-type": "application/json" });
        response.end(
          JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }),
        );
        return;
      }
      await known.handleRequest(request, response, body);
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    await mcp().connect(transport);
    await transport.handleRequest(request, response, body);
  };

  const http = createServer((request, response) => {
    void handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.on("error", reject);
  });
}
