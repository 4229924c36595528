/* eslint-disable @typescript-eslint/no-deprecated -- the legacy SSE server is the point of the fallback test. */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { serverConfig } from "../support/fixtures.js";
import { listenOnLoopback } from "../support/loopback-http.js";

function mcpServer(): McpServer {
  const server = new McpServer({ name: "remote", version: "2.0.0" });
  server.registerTool(
    "shout",
    {
      description: "Upper-case the text.",
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
  );
  return server;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A stateless Streamable HTTP server that records the Authorization header it was sent. */
async function startStreamableServer(seenAuth: string[]): Promise<string> {
  const http = createServer((request, response) => {
    seenAuth.push(request.headers.authorization ?? "");
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = mcpServer();
    response.on("close", () => void transport.close());
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  return `${await listenOnLoopback(http, closers)}/mcp`;
}

/** A server that only speaks the legacy HTTP+SSE transport: POST /mcp is not found there. */
async function startLegacySseServer(): Promise<string> {
  const transports = new Map<string, SSEServerTransport>();
  const http = createServer((request: IncomingMessage, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (request.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", response);
      transports.set(transport.sessionId, transport);
      void mcpServer().connect(transport);
      return;
    }
    if (request.method === "POST" && url.pathname === "/messages") {
      const transport = transports.get(url.searchParams.get("sessionId") ?? "");
      if (transport) {
        void transport.handlePostMessage(request, response);
        return;
      }
    }
    response.writeHead(404).end();
  });
  return `${await listenOnLoopback(http, closers)}/sse`;
}

describe("remote MCP servers", () => {
  it("connects over Streamable HTTP with the configured headers and calls a tool", async () => {
    const seenAuth: string[] = [];
    const url = await startStreamableServer(seenAuth);
    const manager = new McpManager(
      [serverConfig("remote", { transport: "http", url, headers: { Authorization: "Bearer t0ken" } })],
      { parentEnv: {} },
    );
    closers.push(() => manager.close());
    await manager.start();
    const [snapshot] = manager.servers();
    expect(snapshot).toMatchObject({
      status: "connected",
      transport: "http",
      url,
      serverInfo: { name: "remote" },
    });
    expect(snapshot?.pid).toBeUndefined();
    const result = await manager.callTool("remote", "shout", { text: "hi" });
    expect(result.content).toEqual([{ type: "text", text: "HI" }]);
    expect(seenAuth.length).toBeGreaterThan(0);
    expect(seenAuth.every((value) => value === "Bearer t0ken")).toBe(true);
  });

  it("falls back to the legacy SSE transport when Streamable HTTP is refused", async () => {
    const url = await startLegacySseServer();
    const manager = new McpManager([serverConfig("legacy", { transport: "http", url })], { parentEnv: {} });
    closers.push(() => manager.close());
    await manager.start();
    expect(manager.servers()[0]?.status).toBe("connected");
    const result = await manager.callTool("legacy", "shout", { text: "old" });
    expect(result.content).toEqual([{ type: "text", text: "OLD" }]);
  });

  it("reports an unreachable server as failed with the cause", async () => {
    // A port just freed: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const manager = new McpManager(
      [serverConfig("gone", { transport: "http", url: `http://127.0.0.1:${port}/mcp` })],
      {
        parentEnv: {},
      },
    );
    closers.push(() => manager.close());
    await manager.start();
    expect(manager.servers()[0]?.status).toBe("failed");
    expect(manager.servers()[0]?.error).toBe(
      "the server could not be reached: nothing is listening there (connection refused)",
    );
  });

  it("says fetch will not connect to a port the Fetch standard blocks, instead of 'fetch failed'", async () => {
    const manager = new McpManager(
      [serverConfig("blocked", { transport: "http", url: "http://127.0.0.1:6000/mcp" })],
      { parentEnv: {} },
    );
    closers.push(() => manager.close());
    await manager.start();
    expect(manager.servers()[0]?.error).toMatch(
      /^the server could not be reached: fetch refuses to connect to that port \(one the Fetch standard blocks/,
    );
  });
});
