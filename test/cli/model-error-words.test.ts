import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readableServerMessage } from "../../src/core/text/readable-server-message.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * What a model endpoint says when it fails reaches the person as one sentence in its own words:
 * a proxy's HTML error page by its text, not its tags over several lines, and an error the
 * server sends inside a stream it already began, not "the connection broke".
 */
let server: Server;
let baseUrl: string;
/** Which failure the endpoint answers with: "html" (a proxy's 502 page) or "midstream". */
let caseName = "";
const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (request.url?.endsWith("/models")) return void response.writeHead(404).end();
      if (caseName === "html") {
        response
          .writeHead(502, { "content-type": "text/html" })
          .end(
            "<html><head><title>502 Bad Gateway</title></head><body>\n<h1>502 Bad Gateway</h1>\n<p>nginx</p></body></html>",
          );
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(chunk("Partial "));
      response.end(
        `data: ${JSON.stringify({ error: { message: "upstream model crashed\nmcpterm: forged", code: 500 } })}\n\n`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ask = async (name: string) => {
  caseName = name;
  return runCli(["-p", "x", "--model", "m", "--base-url", baseUrl, "--no-kb"], {
    cwd: await tempDir(),
    env: cleanEnv(),
  });
};

describe("a model endpoint's failure, in its words", () => {
  it("an HTML error page is told by its title and its other words, on one line", async () => {
    const run = await ask("html");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mcpterm: The model endpoint at \S+ failed with HTTP 502[^\n]*: 502 Bad Gateway — nginx\.\n$/m,
    );
    expect(run.stderr).not.toMatch(/<h1>|<html>/);
  });

  it("an error sent inside a stream already begun says what the server said", async () => {
    const run = await ask("midstream");
    expect(run.stdout).toContain("Partial");
    expect(run.stderr).toMatch(
      /^mcpterm: The model endpoint at \S+ reported an error mid-stream: upstream model crashed mcpterm: forged\.\n$/m,
    );
  });

  it("readableServerMessage reads a page without a title by its words, and plain text as it is", () => {
    expect(readableServerMessage("<html><body><h1>503</h1><p>Service\nUnavailable</p></body></html>")).toBe(
      "503 Service Unavailable",
    );
    expect(readableServerMessage("model not loaded")).toBe("model not loaded");
    expect(readableServerMessage("<html><body></body></html>")).toBeUndefined();
  });

  it("readableServerMessage reads a titled page by its title, then what the rest says besides", () => {
    expect(
      readableServerMessage("<html><head><title>Vite App</title></head><body><div></div></body></html>"),
    ).toBe("Vite App");
    expect(
      readableServerMessage(
        "<html><head><title>500 Internal Server Error</title><script>var t = '<b>';</script></head>" +
          "<body><pre>ValueError:\n db down</pre></body></html>",
      ),
    ).toBe("500 Internal Server Error — ValueError: db down");
  });

  it("readableServerMessage cuts between words: a token across the limit is left out whole, not shown in part", () => {
    const key = "Zq7mWx93LpQr55TtUvYyK";
    const said = readableServerMessage(`${"x".repeat(280)} key ${key} and more`);
    expect(said).toBe(`${"x".repeat(280)} key…`);
    expect(readableServerMessage("y".repeat(400))).toBe("…");
    expect(readableServerMessage(`${"x".repeat(299)} ${key}`)).toBe(`${"x".repeat(299)}…`);
  });

  it("readableServerMessage reads only the start of a page, however its tags are left open", () => {
    const page = `<html><body>${"<script>".repeat(200_000)}`;
    expect(readableServerMessage(page)).toBeUndefined();
    expect(readableServerMessage(`<html><body><p>${"word ".repeat(100_000)}`)).toMatch(/^(word ){59}word…$/);
  });
});
