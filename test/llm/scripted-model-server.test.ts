import { afterEach, describe, expect, it } from "vitest";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script?: ScriptedReply[]): Promise<ScriptedModelServer> {
  server = await startScriptedModelServer(script);
  return server;
}

function post(s: ScriptedModelServer, body: object, signal?: AbortSignal): Promise<Response> {
  return fetch(`${s.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: signal ?? null,
  });
}

/** The parsed `data:` payloads of an SSE body, without the final [DONE]. */
async function events(response: Response): Promise<unknown[]> {
  const text = await response.text();
  expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
  return text
    .split("\n\n")
    .filter((line) => line.startsWith("data: {"))
    .map((line) => JSON.parse(line.slice("data: ".length)) as unknown);
}

describe("scripted model server", () => {
  it("streams text in chunks, a finish reason and, when asked, a usage chunk", async () => {
    const s = await start([{ text: "abcdefghij", usage: { prompt_tokens: 2, completion_tokens: 3 } }]);
    const response = await post(s, { model: "m", stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const chunks = await events(response);
    expect(
      chunks.map((c) => (c as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content),
    ).toEqual(["abcd", "efgh", "ij", undefined, undefined]);
    expect(chunks.at(-2)).toMatchObject({ choices: [{ finish_reason: "stop" }] });
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 },
    });
  });

  it("streams tool calls the way OpenAI does: a header delta, then argument fragments by index", async () => {
    const s = await start([
      { toolCalls: [{ id: "a", name: "read", arguments: "123456" }], splitArgsInto: 2 },
    ]);
    const chunks = await events(await post(s, { stream: true }));
    const deltas = chunks.map((c) => (c as { choices: Array<{ delta: unknown }> }).choices[0]?.delta);
    expect(deltas).toEqual([
      {
        role: "assistant",
        tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "read", arguments: "" } }],
      },
      { tool_calls: [{ index: 0, function: { arguments: "123" } }] },
      { tool_calls: [{ index: 0, function: { arguments: "456" } }] },
      {},
    ]);
    expect(chunks.at(-1)).toMatchObject({ choices: [{ finish_reason: "tool_calls" }] });
  });

  it("sends no finish reason when told null", async () => {
    const s = await start([{ text: "hi", finishReason: null }]);
    const chunks = await events(await post(s, { stream: true }));
    expect(JSON.stringify(chunks)).not.toContain('"finish_reason":"');
  });

  it("answers a non-streaming request with a whole completion", async () => {
    const s = await start([{ toolCalls: [{ name: "read", arguments: "{}" }], text: "" }]);
    const body: unknown = await (await post(s, { model: "m", stream: false })).json();
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "m",
      choices: [
        {
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "call_1_1", function: { name: "read" } }],
          },
          finish_reason: "tool_calls",
        },
      ],
    });
  });

  it("answers HTTP errors with the scripted status, headers and body", async () => {
    const s = await start([
      { status: 429, headers: { "retry-after": "1" }, body: { error: { message: "slow down" } } },
    ]);
    const response = await post(s, { stream: true });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toEqual({ error: { message: "slow down" } });
  });

  it("fails loudly with 500 when the script is exhausted", async () => {
    const s = await start([]);
    const response = await post(s, { stream: true });
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).toContain("script exhausted");
  });

  it("serves many sequential and concurrent requests, recording each in order of arrival", async () => {
    const s = await start();
    s.enqueue(...Array.from({ length: 30 }, (_, i) => ({ text: `reply ${i}` })));
    for (let i = 0; i < 20; i++) await events(await post(s, { stream: true, n: i }));
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => post(s, { stream: true })));
    expect(concurrent.every((r) => r.status === 200)).toBe(true);
    await Promise.all(concurrent.map((r) => r.text()));
    expect(s.requests).toHaveLength(30);
    expect(s.requests[19]?.body).toMatchObject({ n: 19 });
  });

  it("uses a script function and passes it the request and its index", async () => {
    server = await startScriptedModelServer((request, index) => ({
      text: `${index}:${(request.body as { model: string }).model}`,
    }));
    const completion = (await (await post(server, { model: "m1" })).json()) as {
      choices: Array<{ message: { content: string } }>;
    };
    expect(completion.choices[0]?.message.content).toBe("0:m1");
  });

  it("closes even while a request hangs", async () => {
    const s = await start([{ hang: true }]);
    const pending = post(s, { stream: true }).then(
      () => "answered",
      () => "failed",
    );
    while (s.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await s.close();
    server = undefined;
    expect(await pending).toBe("failed");
  });
});
