import { createServer as createHttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { serverConfig } from "../support/fixtures.js";

/**
 * A remote server whose answers are not valid HTTP/1.1 (a header holding an escape character, as
 * a framework that copies a value into a header without checking it sends): undici refuses the
 * answer and says only "fetch failed". mcpterm says the server answered, wrongly. And one that
 * answers with a redirect to itself, which the SDK gives up on naming that very URL.
 */
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A raw HTTP/1.1 server speaking 2025 JSON-RPC; `broken` says which methods get a bad header. */
async function rawServer(broken: (method: string | undefined) => boolean): Promise<string> {
  const server: Server = createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on("error", () => undefined);
    socket.on("data", (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString();
        const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const body = buffer.subarray(end + 4, end + 4 + length).toString();
        buffer = buffer.subarray(end + 4 + length);
        const message = (body ? JSON.parse(body) : {}) as { id?: number; method?: string };
        const reply = (status: string, text: string, extra = ""): void => {
          socket.write(
            `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\n${extra}content-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
          );
        };
        const bad = broken(message.method) ? "x-trace: a\u001bb\r\n" : "";
        if (head.startsWith("GET")) reply("405 Method Not Allowed", "", bad);
        else if (message.id === undefined) reply("202 Accepted", "", bad);
        else if (message.method === "initialize")
          reply(
            "200 OK",
            JSON.stringify({
              jsonrpc: "2.0",
              id: message.id,
              result: {
                protocolVersion: "2025-11-25",
                capabilities: { tools: {} },
                serverInfo: { name: "raw", version: "1" },
              },
            }),
            `mcp-session-id: s1\r\n${bad}`,
          );
        else if (message.method === "tools/list")
          reply(
            "200 OK",
            JSON.stringify({
              jsonrpc: "2.0",
              id: message.id,
              result: { tools: [{ name: "echo", inputSchema: { type: "object" } }] },
            }),
            bad,
          );
        else if (message.method === "tools/call")
          reply(
            "200 OK",
            JSON.stringify({
              jsonrpc: "2.0",
              id: message.id,
              result: { content: [{ type: "text", text: "ok" }] },
            }),
            bad,
          );
        else
          reply(
            "200 OK",
            JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "not found" } }),
            bad,
          );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

function manage(url: string, protocol?: "2025-11-25"): McpManager {
  const manager = new McpManager(
    [serverConfig("raw", { transport: "http", url, ...(protocol ? { protocol } : {}) })],
    { parentEnv: {} },
  );
  closers.push(() => manager.close());
  return manager;
}

describe("a remote server whose answer is not valid HTTP/1.1", () => {
  it("fails its start saying it answered wrongly, not that it could not be reached", async () => {
    const manager = manage(await rawServer(() => true));
    await manager.start();
    const [snapshot] = manager.servers();
    expect(snapshot?.status).toBe("failed");
    expect(snapshot?.error).toMatch(
      /the server answered the server\/discover probe, but its answer is not valid HTTP\/1\.1 \(Invalid header value char\): a fault of the server or of a proxy in front of it/,
    );
    expect(snapshot?.error).not.toMatch(/fetch failed|could not be reached/);
  });

  it("the same with its revision pinned, where no probe is sent", async () => {
    const manager = manage(await rawServer(() => true), "2025-11-25");
    await manager.start();
    expect(manager.servers()[0]?.error).toMatch(
      /^the server answered, but its answer is not valid HTTP\/1\.1 \(Invalid header value char\)/,
    );
  });

  it("fails a call answered so with the same words", async () => {
    const manager = manage(await rawServer((method) => method === "tools/call"), "2025-11-25");
    await manager.start();
    expect(manager.servers()[0]?.status).toBe("connected");
    await expect(manager.callTool("raw", "echo", {})).rejects.toThrow(
      /failed during the request: its answer is not valid HTTP\/1\.1 \(Invalid header value char\): a fault of the server/,
    );
  });
});

describe("a URL where something other than an HTTP server answers", () => {
  it("says to check the URL's port and scheme, not that a server answered wrongly", async () => {
    const server = createServer((socket) => {
      socket.on("error", () => undefined);
      socket.on("data", () => socket.end("SSH-2.0-OpenSSH_9.6\r\n"));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const manager = manage(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    await manager.start();
    const error = manager.servers()[0]?.error ?? "";
    expect(error).toMatch(
      /^what answers at that address does not speak HTTP \(Expected HTTP\/.*\): check the URL's port and scheme/,
    );
    expect(error).not.toMatch(/fault of the server/);
  });
});

describe("a URL where the connection is taken and closed with no answer", () => {
  it("says so with what to check (an https server on an http:// URL does this)", async () => {
    // As a TLS server does with a plain-text request: it reads it and hangs up, sending nothing.
    const server = createServer((socket) => {
      socket.on("error", () => undefined);
      socket.on("data", () => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const manager = manage(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    await manager.start();
    expect(manager.servers()[0]?.error).toMatch(
      /the connection closed before an answer came \(if the server speaks https, the URL must begin https:\/\/; else check the port\)/,
    );
  });
});

describe("a remote server that redirects to its own URL", () => {
  it("is said to loop, not told to use that URL", async () => {
    const http = createHttpServer((request, response) => {
      request.resume();
      response.writeHead(307, { location: `http://127.0.0.1:${port}/mcp` }).end();
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const { port } = http.address() as AddressInfo;
    closers.push(() => new Promise((resolve) => http.close(() => resolve())));
    const manager = manage(`http://127.0.0.1:${port}/mcp`);
    await manager.start();
    const error = manager.servers()[0]?.error ?? "";
    expect(error).toContain(
      "the server answers with a redirect to its own URL, over and over (a redirect loop); its owner must fix it, the URL is not the cause",
    );
    expect(error).not.toMatch(/use that URL/);
  });
});
