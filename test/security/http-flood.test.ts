/* eslint-disable @typescript-eslint/no-deprecated -- the legacy SSE server is the point of the last test. */
import { createServer, type ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_MESSAGE_SIZE } from "../../src/core/mcp/message-limit.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { formatBytes } from "../../src/core/text/index.js";
import { serverConfig } from "../support/fixtures.js";
import { listenOnLoopback } from "../support/loopback-http.js";

/**
 * A remote server that answers some calls with more than anyone could use: a JSON body, an SSE
 * event or an error page of up to 1 GB, written in 1 MB pieces as fast as the client reads.
 * What it managed to write before the client hung up shows how much the client took in.
 */
const FLOOD_BYTES = 1024 * 1_048_576;
const PIECE = Buffer.alloc(1_048_576, "a");

type Flood = "flood_json" | "flood_sse" | "flood_error" | "flood_declared" | "cut_mid_event";

interface FloodServer {
  url: string;
  /** Bytes of each flood written before the client closed the connection. */
  written: Partial<Record<Flood, number>>;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function pour(response: ServerResponse, start: string, limit: number): Promise<number> {
  let written = 0;
  const write = (chunk: Buffer | string): Promise<void> =>
    new Promise((resolve) => {
      written += chunk.length;
      if (response.write(chunk)) resolve();
      else {
        response.once("drain", resolve);
        response.once("close", resolve);
      }
    });
  await write(start);
  while (written < limit && !response.destroyed) await write(PIECE);
  response.end();
  return written;
}

async function startFloodServer(): Promise<FloodServer> {
  const written: FloodServer["written"] = {};
  const http = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const message = (body ? JSON.parse(body) : {}) as {
        id?: number;
        method?: string;
        params?: { name?: string };
      };
      const name = message.method === "tools/call" ? (message.params?.name as Flood | undefined) : undefined;
      const opening = `{"jsonrpc":"2.0","id":${message.id ?? 0},"result":{"content":[{"type":"text","text":"`;
      const flood = (
        status: number,
        type: string,
        start: string,
        headers: Record<string, string> = {},
      ): void => {
        response.writeHead(status, { "content-type": type, ...headers });
        void pour(response, start, FLOOD_BYTES).then((bytes) => {
          if (name) written[name] = bytes;
        });
      };
      const answers: Record<Flood, () => void> = {
        flood_json: () => {
          flood(200, "application/json", opening);
        },
        flood_sse: () => {
          flood(200, "text/event-stream", `event: message\ndata: ${opening}`);
        },
        flood_error: () => {
          flood(500, "text/html", "<html><title>Overloaded</title><body>");
        },
        flood_declared: () => {
          flood(200, "application/json", opening, { "content-length": String(FLOOD_BYTES) });
        },
        cut_mid_event: () => {
          response.writeHead(200, { "content-type": "text/event-stream" });
          response.write(`event: message\ndata: ${opening}half of an answ`, () => response.destroy());
        },
      };
      const answer = name === undefined ? undefined : answers[name];
      if (answer) {
        answer();
        return;
      }
      const server = new McpServer({ name: "flood", version: "1.0.0" });
      for (const tool of [...Object.keys(answers), "echo"])
        server.registerTool(tool, { annotations: { readOnlyHint: true } }, () => ({
          content: [{ type: "text", text: "fine" }],
        }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on("close", () => void transport.close());
      void server.connect(transport).then(() => transport.handleRequest(request, response, message));
    });
  });
  const origin = await listenOnLoopback(http, closers);
  return { url: `${origin}/mcp`, written };
}

async function connected(): Promise<{ server: FloodServer; manager: McpManager }> {
  const server = await startFloodServer();
  // A call timeout far beyond the test's own: waiting it out would fail the test.
  const manager = new McpManager(
    [serverConfig("flood", { transport: "http", url: server.url, timeoutMs: 120_000 })],
    { parentEnv: {} },
  );
  closers.push(() => manager.close());
  await manager.start();
  expect(manager.servers()[0]?.status).toBe("connected");
  return { server, manager };
}

/** The flood's bytes once the server noticed the client hung up. */
async function writtenBy(server: FloodServer, name: Flood): Promise<number> {
  for (let wait = 0; wait < 200 && server.written[name] === undefined; wait += 1)
    await new Promise((resolve) => setTimeout(resolve, 25));
  return server.written[name] ?? Number.NaN;
}

describe("a remote server answering with more than one message may hold", () => {
  const sentence = `the server sent one message of more than ${formatBytes(MAX_MESSAGE_SIZE)}`;

  it.each<Flood>(["flood_json", "flood_sse"])(
    "%s: the call fails saying so, the download stops",
    async (name) => {
      const { server, manager } = await connected();
      await expect(manager.callTool("flood", name, {})).rejects.toThrow(sentence);
      // The client stopped reading just past the limit; the kernel's buffers hold a few MB more.
      expect(await writtenBy(server, name)).toBeLessThan(MAX_MESSAGE_SIZE + 32 * 1_048_576);
      // The connection is still good for the next call.
      expect((await manager.callTool("flood", "echo", {})).content).toEqual([{ type: "text", text: "fine" }]);
    },
  );

  it("a Content-Length past the limit fails before the body is read", async () => {
    const { server, manager } = await connected();
    await expect(manager.callTool("flood", "flood_declared", {})).rejects.toThrow(sentence);
    expect(await writtenBy(server, "flood_declared")).toBeLessThan(32 * 1_048_576);
  });

  it("an endless error page is read only as far as its first words", async () => {
    const { server, manager } = await connected();
    await expect(manager.callTool("flood", "flood_error", {})).rejects.toThrow(/HTTP 500|Overloaded/);
    expect(await writtenBy(server, "flood_error")).toBeLessThan(32 * 1_048_576);
  });

  it("a stream cut off inside an event fails its call at once, not after the timeout", async () => {
    const { manager } = await connected();
    await expect(manager.callTool("flood", "cut_mid_event", {})).rejects.toThrow(
      "closed the response stream before answering",
    );
    expect((await manager.callTool("flood", "echo", {})).content).toEqual([{ type: "text", text: "fine" }]);
  });
});

/** A server of the legacy HTTP+SSE transport, whose answers all come on one long-lived stream. */
async function startLegacySseServer(): Promise<string> {
  const transports = new Map<string, SSEServerTransport>();
  const http = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (request.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", response);
      transports.set(transport.sessionId, transport);
      const server = new McpServer({ name: "legacy", version: "1.0.0" });
      server.registerTool(
        "big",
        { inputSchema: { mb: z.number() }, annotations: { readOnlyHint: true } },
        ({ mb }) => ({
          content: [{ type: "text", text: "x".repeat(mb * 1_048_576) }],
        }),
      );
      void server.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get("sessionId") ?? "");
    if (transport) void transport.handlePostMessage(request, response);
    else response.writeHead(404).end();
  });
  const origin = await listenOnLoopback(http, closers);
  return `${origin}/sse`;
}

describe("a legacy SSE server answering with more than one message may hold", () => {
  it("fails the call at once, as a connection lost, never after its timeout", async () => {
    const url = await startLegacySseServer();
    const manager = new McpManager([serverConfig("legacy", { transport: "sse", url, timeoutMs: 120_000 })], {
      parentEnv: {},
    });
    closers.push(() => manager.close());
    await manager.start();
    expect((await manager.callTool("legacy", "big", { mb: 1 })).content).toHaveLength(1);
    // Its answers come on the one stream mcpterm stopped: the connection is closed under the call.
    await expect(manager.callTool("legacy", "big", { mb: 70 })).rejects.toThrow(
      'server "legacy" closed the connection during the call',
    );
  });
});
