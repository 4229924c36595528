import { createServer } from "node:http";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { listenOnLoopback } from "../support/loopback-http.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/** What a web framework's debug page looks like when the handler behind a tool raised. */
const ERROR_PAGE =
  "<!DOCTYPE html><html><head><title>500 Internal Server Error</title><style>" +
  "body{color:red}".repeat(200) +
  "</style><script>console.log('x')</script></head><body><h1>Internal Server Error</h1><pre>" +
  "Traceback (most recent call last):\n  File \"app.py\", line 12, in handler\n    raise ValueError('db down')\nValueError: db down</pre>" +
  "<p>More detail.</p>".repeat(300) +
  "</body></html>";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A real Streamable HTTP server, behind which a tool call fails with a framework's HTML page. */
async function failingServer(): Promise<string> {
  const http = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      if (body.includes('"tools/call"')) {
        response.writeHead(500, { "content-type": "text/html" }).end(ERROR_PAGE);
        return;
      }
      const server = new McpServer({ name: "failing", version: "1.0.0" });
      server.registerTool("boom", { annotations: { readOnlyHint: true } }, () => ({ content: [] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on("close", () => void transport.close());
      void server
        .connect(transport)
        .then(() =>
          transport.handleRequest(request, response, body === "" ? undefined : (JSON.parse(body) as unknown)),
        );
    });
  });
  return listenOnLoopback(http, closers);
}

describe("a remote server whose tool call fails with an HTML error page", () => {
  it("is told in one line by the page's words, its traceback among them, not its markup", async () => {
    const origin = await failingServer();
    const dir = await tempDir();
    await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { web: { url: `${origin}/mcp` } } });
    const run = await runCli(trustingConfig(["call", "web/boom"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mcpterm: server "web" answered HTTP 500 Internal Server Error: 500 Internal Server Error — Internal Server Error Traceback \(most recent call last\): File "app\.py", line 12, in handler raise ValueError\('db down'\) ValueError: db down More detail\.[^\n]*…\n$/,
    );
    expect(run.stderr).not.toMatch(/[<>{}]/);
    expect(run.stderr.length).toBeLessThan(500);
  });
});
