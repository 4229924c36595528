/**
 * The chat request as the bytes cross the wire: servers that redirect, answer errors in their
 * own shapes, report an error inside the stream, send what is not JSON, or dribble the stream out
 * a byte at a time with CRLF line endings. Each is a real HTTP server on a loopback port.
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAiChatModel } from "../../src/core/llm/openai-chat-model.js";
import { ask, collect, done, failure, fakeSleep } from "./helpers.js";

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

const servers: http.Server[] = [];
const rawServers: net.Server[] = [];
afterEach(async () => {
  for (const raw of rawServers.splice(0)) raw.close();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

/** A server answering every request through `handler`; resolves with its base URL and hits. */
async function serve(handler: Handler): Promise<{ baseUrl: string; hits: http.IncomingMessage[] }> {
  const hits: http.IncomingMessage[] = [];
  const server = http.createServer((request, response) => {
    hits.push(request);
    request.resume();
    request.on("end", () => {
      handler(request, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, hits };
}

const model = (baseUrl: string, options = {}) =>
  createOpenAiChatModel(
    { model: "m", baseUrl, apiKey: "sk-wire-secret-123" },
    { maxRetries: 0, sleep: fakeSleep().sleep, ...options },
  );

const chunk = (content: string, finish: string | null = null) =>
  JSON.stringify({
    id: "c",
    object: "chat.completion.chunk",
    created: 0,
    model: "m",
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  });

describe("the chat request on the wire", () => {
  it("does not follow a redirect, so the key never reaches the address it names", async () => {
    const elsewhere = await serve((_request, response) => response.end("{}"));
    const redirecting = await serve((_request, response) => {
      response.writeHead(307, { location: `${elsewhere.baseUrl}/chat/completions` }).end();
    });
    const error = await failure(model(redirecting.baseUrl));
    expect(error.kind).toBe("bad_request");
    expect(error.message).toBe(
      `The model endpoint at ${redirecting.baseUrl} redirected the request to ${elsewhere.baseUrl}/chat/completions (HTTP 307), which mcpterm does not follow with your key; if you trust that address, point --base-url (or OPENAI_BASE_URL) at it, without /chat/completions.`,
    );
    expect(elsewhere.hits).toHaveLength(0);
  });

  it.each([
    ["/v1/chat/completions/", "/v1/chat/completions/"],
    ["completions/", "/v1/chat/completions/"],
    ["../v2/chat/completions", "/v1/v2/chat/completions"],
    [
      "https://user:pw@other.example/v1/chat/completions?key=SECRET#x",
      "https://other.example/v1/chat/completions",
    ],
  ])("names a redirect to %s as the place the request would go, no secret in it", async (location, named) => {
    const server = await serve((_request, response) => response.writeHead(308, { location }).end());
    const error = await failure(model(`${server.baseUrl}?api-version=1`));
    const origin = new URL(server.baseUrl).origin;
    const target = named.startsWith("/") ? `${origin}${named}` : named;
    expect(error.message).toContain(`redirected the request to ${target} (HTTP 308)`);
    expect(error.message).not.toContain("SECRET");
    expect(error.message).not.toContain("pw@");
  });

  it("names the HTTP parser's complaint when a body's framing is broken", async () => {
    const raw = net.createServer((socket) => {
      socket.once("data", () => {
        socket.write(
          "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n",
        );
        socket.end("zz\r\nnot a chunk\r\n");
      });
    });
    rawServers.push(raw);
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    const baseUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`;
    const error = await failure(model(baseUrl));
    expect(error.message).toContain("(HPE_INVALID_CHUNK_SIZE)");
  });

  it("calls a 3xx that names no place a rejected request, not a redirect", async () => {
    const server = await serve((_request, response) => response.writeHead(304).end());
    const error = await failure(model(server.baseUrl));
    expect(error.message).toBe(`The model endpoint at ${server.baseUrl} rejected the request (HTTP 304).`);
  });

  it("keeps a base URL's query at the end of the request's URL, as Azure-style gateways need", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(`data: ${chunk("ok", "stop")}\n\ndata: [DONE]\n\n`);
    });
    await collect(model(`${server.baseUrl}/?api-version=2024-10-21`));
    expect(server.hits[0]?.url).toBe("/v1/chat/completions?api-version=2024-10-21");
  });

  it("sends the steps of a turn over one kept-alive connection", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(`data: ${chunk("ok", "stop")}\n\ndata: [DONE]\n\n`);
    });
    const steps = model(server.baseUrl);
    for (let step = 0; step < 4; step++) expect(done(await collect(steps)).text).toBe("ok");
    expect(new Set(server.hits.map((hit) => hit.socket)).size).toBe(1);
  });

  it.each([
    ['{"error":{"message":"bad temperature","type":"invalid_request_error"}}', "bad temperature"],
    ['{"error":"model is loading"}', "model is loading"],
    ['{"detail":"Field required: messages"}', "Field required: messages"],
    ["plain words from a proxy", "plain words from a proxy"],
  ])("says what a 400 body %s said", async (body, said) => {
    const server = await serve((_request, response) => response.writeHead(400).end(body));
    const error = await failure(model(server.baseUrl));
    expect(error.message).toBe(
      `The model endpoint at ${server.baseUrl} rejected the request (HTTP 400): ${said}.`,
    );
  });

  it("reports an error event inside a 200 stream in the server's words, after the text before it", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(`data: ${chunk("part")}\n\nevent: error\ndata: {"error":{"message":"GPU fell over"}}\n\n`);
    });
    const error = await failure(model(server.baseUrl));
    expect(error.kind).toBe("server");
    expect(error.message).toContain("reported an error mid-stream: GPU fell over.");
  });

  it("reads a server that ignores stream: true and answers one JSON completion, tool calls included", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      response.end(
        JSON.stringify({
          id: "whole",
          object: "chat.completion",
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: "Let me look.",
                tool_calls: [
                  {
                    id: "call_1",
                    type: "function",
                    function: { name: "fs__read", arguments: '{"path":"a"}' },
                  },
                ],
              },
              finish_reason: "tool_calls",
            },
          ],
          usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
        }),
      );
    });
    const events = await collect(model(server.baseUrl));
    expect(events[0]).toEqual({ type: "text", delta: "Let me look." });
    expect(done(events)).toMatchObject({
      text: "Let me look.",
      toolCalls: [{ id: "call_1", name: "fs__read", arguments: '{"path":"a"}' }],
      finishReason: "tool_calls",
      usage: { promptTokens: 12, completionTokens: 5 },
    });
  });

  it.each([
    ['{"error":{"message":"quota used up"}}', "server"],
    ['{"object":"list","data":[]}', "protocol"],
    ["{not json", "protocol"],
  ])("tells a 200 JSON body %s as a failure, not an empty answer", async (body, kind) => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(body);
    });
    expect((await failure(model(server.baseUrl))).kind).toBe(kind);
  });

  it("calls a stream that is not JSON a stream it could not parse", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end("data: <html>oops</html>\n\n");
    });
    const error = await failure(model(server.baseUrl));
    expect(error.kind).toBe("protocol");
  });

  it("calls a 200 HTML page no chat completion, by its words, and does not ask again", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(
        "<html><head><title>Gateway login</title></head><body><p>Please sign in.</p></body></html>",
      );
    });
    const error = await failure(model(server.baseUrl, { maxRetries: 2 }));
    expect(error.kind).toBe("protocol");
    expect(error.message).toBe(
      `The model endpoint at ${server.baseUrl} answered with an HTML page, not a chat completion (Gateway login — Please sign in.); check --base-url: a proxy or a sign-in page may stand in front of the API.`,
    );
    expect(server.hits).toHaveLength(1);
  });

  it("reads a stream it was sent as text/html: the label does not make it a page", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(`data: ${chunk("hello html", "stop")}\n\ndata: [DONE]\n\n`);
    });
    expect(done(await collect(model(server.baseUrl)))).toMatchObject({ text: "hello html" });
  });

  it.each([
    ["nothing but [DONE]", "data: [DONE]\n\n", ""],
    [
      "a JSON error without data:",
      '{"error":{"message":"internal kaboom"}}\n',
      " (it sent: internal kaboom)",
    ],
    ["keep-alives and plain text", ": ping\n\nupstream unavailable\n", " (it sent: upstream unavailable)"],
    ["an empty body", "", ""],
  ])("calls a stream that ends before its first chunk no answer: %s", async (_name, body, sent) => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(body);
    });
    const error = await failure(model(server.baseUrl));
    expect(error.kind).toBe("protocol");
    expect(error.message).toBe(
      `The model endpoint at ${server.baseUrl} ended its stream without a single chunk of an answer${sent}.`,
    );
  });

  it("assembles an answer sent a byte at a time with CRLF endings and no [DONE]", async () => {
    const wire = Buffer.from(
      `data: ${chunk("héllo ")}\r\n\r\n: ping\r\n\r\ndata: ${chunk("wörld", "stop")}\r\n\r\n`,
    );
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      let at = 0;
      const next = (): void => {
        if (at === wire.length) {
          response.end();
          return;
        }
        response.write(wire.subarray(at, at + 1), next);
        at += 1;
      };
      next();
    });
    const events = await collect(model(server.baseUrl));
    expect(done(events).text).toBe("héllo wörld");
    expect(done(events).finishReason).toBe("stop");
  });

  it("sends the key as a bearer token and the request as JSON to <base>/chat/completions", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(`data: ${chunk("ok", "stop")}\n\ndata: [DONE]\n\n`);
    });
    await collect(model(`${server.baseUrl}/`), ask());
    const [hit] = server.hits;
    expect(hit?.method).toBe("POST");
    expect(hit?.url).toBe("/v1/chat/completions");
    expect(hit?.headers.authorization).toBe("Bearer sk-wire-secret-123");
    expect(hit?.headers["content-type"]).toBe("application/json");
  });

  it("gives up on headers that never come after the request timeout, as a connection failure", async () => {
    const server = await serve(() => {
      // Never answers.
    });
    const error = await failure(model(server.baseUrl, { requestTimeoutMs: 200 }));
    expect(error.kind).toBe("connection");
    expect(error.message).toContain("did not answer within 200 ms");
  });

  it("tries a request whose headers never came once more, not four times: each costs the whole timeout", async () => {
    const server = await serve(() => {
      // Never answers.
    });
    const error = await failure(model(server.baseUrl, { requestTimeoutMs: 200, maxRetries: 4 }));
    expect(error.message).toContain("did not answer within 200 ms after 1 retry");
    expect(server.hits).toHaveLength(2);
  });

  it("counts those silences apart from other retries: a 503 first, then two silences", async () => {
    let requests = 0;
    const server = await serve((_request, response) => {
      requests += 1;
      if (requests === 1) response.writeHead(503).end();
      // Then never answers.
    });
    const error = await failure(model(server.baseUrl, { requestTimeoutMs: 200, maxRetries: 4 }));
    expect(error.message).toContain("did not answer within 200 ms after 2 retries");
    expect(server.hits).toHaveLength(3);
  });

  it("stops a stream the person cancels, and closes its connection", async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`data: ${chunk("first")}\n\n`);
      response.on("close", closed);
    });
    const controller = new AbortController();
    const events = model(server.baseUrl).stream(ask({ signal: controller.signal }));
    const stream = events[Symbol.asyncIterator]();
    const first = await stream.next();
    expect(first.value).toEqual({ type: "text", delta: "first" });
    controller.abort();
    await expect(stream.next()).rejects.toMatchObject({ kind: "aborted" });
    await connectionClosed;
  });
});
