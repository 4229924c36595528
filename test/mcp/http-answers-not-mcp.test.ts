import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { serverConfig } from "../support/fixtures.js";

/**
 * What a server author sees when the URL answers, but not as an MCP endpoint: one sentence with
 * the status, the page's own words and the likely fix, never a page of HTML or a validation tree.
 */
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (request.url === "/json")
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "ok" }));
      else if (request.url === "/html")
        response
          .writeHead(200, { "content-type": "text/html" })
          .end(
            "<!doctype html><html><head><title>Vite App</title></head><body><div id=app></div></body></html>",
          );
      else if (request.url === "/crash")
        response
          .writeHead(500, { "content-type": "text/plain" })
          .end(
            "Error: Cannot read properties of undefined (reading 'sessionId')\n    at handler (/srv/app.js:12:5)",
          );
      else if (request.url === "/post-only-get")
        response.writeHead(405, { "content-type": "text/plain", allow: "GET" }).end("Method Not Allowed");
      else
        response
          .writeHead(404, { "content-type": "text/html" })
          .end(`<html><body><h1>Cannot POST ${request.url ?? ""}</h1></body></html>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function failureAt(path: string): Promise<string | undefined> {
  const manager = new McpManager([serverConfig("app", { transport: "http", url: `${base}${path}` })], {
    parentEnv: {},
  });
  try {
    await manager.start();
    expect(manager.servers()[0]?.status).toBe("failed");
    return manager.servers()[0]?.error;
  } finally {
    await manager.close();
  }
}

const FIX = "check the URL: its path must be the server's MCP endpoint (often /mcp)";

describe("a URL that answers, but not as MCP", () => {
  it("JSON that is not JSON-RPC is said to be so, not shown as a validation tree", async () => {
    expect(await failureAt("/json")).toBe(
      "the server answered the server/discover probe with JSON that is not a JSON-RPC message (a JSON-RPC 2.0 response with this request's id was expected)",
    );
  });

  it("an HTML page is named by its type, with the likely fix", async () => {
    expect(await failureAt("/html")).toBe(
      `the server answered the server/discover probe with text/html, not JSON-RPC; ${FIX}`,
    );
  });

  it("a 500 is quoted by its first words, on one line", async () => {
    expect(await failureAt("/crash")).toBe(
      "the server answered the server/discover probe with HTTP 500: Error: Cannot read properties of undefined (reading 'sessionId') at handler (/srv/app.js:12:5)",
    );
  });

  it("an https:// URL for a plain http port says nothing speaks TLS there, not OpenSSL's file names", async () => {
    const manager = new McpManager(
      [serverConfig("app", { transport: "http", url: `${base.replace("http:", "https:")}/mcp` })],
      { parentEnv: {} },
    );
    try {
      await manager.start();
      expect(manager.servers()[0]?.error).toBe(
        "the server could not be reached over TLS (ERR_SSL_WRONG_VERSION_NUMBER): nothing speaks TLS there; is it an https:// URL for a plain http port?",
      );
    } finally {
      await manager.close();
    }
  });

  it("a 404 or 405 page says its status and its words, not its markup", async () => {
    expect(await failureAt("/nothere")).toBe(
      `the server answered HTTP 404 Not Found to the first message: Cannot POST /nothere; ${FIX}`,
    );
    expect(await failureAt("/post-only-get")).toBe(
      `the server answered HTTP 405 Method Not Allowed to the first message: Method Not Allowed; ${FIX}`,
    );
  });
});
