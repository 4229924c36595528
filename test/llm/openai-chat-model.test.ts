import { describe, expect, it } from "vitest";
import { abortableSleep, createOpenAiChatModel } from "../../src/core/llm/openai-chat-model.js";
import type { ModelStreamEvent } from "../../src/core/llm/types.js";
import { startScriptedModelServer, type ScriptedReply } from "../support/scripted-model-server.js";
import { ask, collect, done, failure, fakeSleep, modelFor, scriptedServerPerTest } from "./helpers.js";

const { start, startAnswering } = scriptedServerPerTest();

describe("createOpenAiChatModel streaming", () => {
  it("yields text deltas as they arrive, then one done with text, usage and timing", async () => {
    const s = await start({
      text: "Hello, world!",
      chunkSize: 5,
      usage: { prompt_tokens: 7, completion_tokens: 3 },
    });
    const events = await collect(modelFor(s));
    expect(events.filter((e) => e.type === "text").map((e) => e.delta)).toEqual(["Hello", ", wor", "ld!"]);
    const last = done(events);
    expect(last).toMatchObject({ text: "Hello, world!", toolCalls: [], finishReason: "stop" });
    expect(last.usage).toEqual({ promptTokens: 7, completionTokens: 3, totalTokens: 10 });
    expect(last.firstTokenMs).toBeGreaterThanOrEqual(0);
  });

  it("sends the request the way OpenAI expects", async () => {
    const s = await start({ text: "ok" });
    await collect(
      modelFor(s),
      ask({
        messages: [
          { role: "system", content: "be brief" },
          { role: "user", content: "read x" },
          {
            role: "assistant",
            content: null,
            toolCalls: [{ id: "c1", name: "read", arguments: '{"p":"x"}' }],
          },
          { role: "tool", toolCallId: "c1", content: "file text" },
        ],
        tools: [{ name: "read", description: "Read a file", parameters: { type: "object" } }],
      }),
    );
    const recorded = s.requests[0];
    expect(recorded?.headers.authorization).toBe("Bearer sk-secret-123");
    expect(recorded?.body).toMatchObject({
      model: "test-model",
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        {
          type: "function",
          function: { name: "read", description: "Read a file", parameters: { type: "object" } },
        },
      ],
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "read x" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: '{"p":"x"}' } }],
        },
        { role: "tool", tool_call_id: "c1", content: "file text" },
      ],
    });
  });

  it("leaves tools out when there are none and sends a placeholder key when none is set", async () => {
    const s = await start({ text: "ok" });
    await collect(createOpenAiChatModel({ model: "m", baseUrl: s.baseUrl, apiKey: undefined }));
    const body = s.requests[0]?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty("tools");
    expect(s.requests[0]?.headers.authorization).toBe("Bearer not-needed");
  });

  it("assembles two parallel tool calls split across chunks", async () => {
    const s = await start({
      text: "Let me look.",
      toolCalls: [
        { id: "call_a", name: "filesystem__read_text_file", arguments: '{"path":"README.md"}' },
        { id: "call_b", name: "filesystem__list_directory", arguments: '{"path":"."}' },
      ],
      splitArgsInto: 4,
    });
    const last = done(await collect(modelFor(s)));
    expect(last.text).toBe("Let me look.");
    expect(last.finishReason).toBe("tool_calls");
    expect(last.toolCalls).toEqual([
      { id: "call_a", name: "filesystem__read_text_file", arguments: '{"path":"README.md"}' },
      { id: "call_b", name: "filesystem__list_directory", arguments: '{"path":"."}' },
    ]);
    expect(last.firstTokenMs).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ["stop", "stop"],
    ["length", "length"],
    ["content_filter", "content_filter"],
    ["eos_token", "unknown"],
    [null, "unknown"],
  ] as const)("maps finish reason %s to %s", async (sent, expected) => {
    const s = await start({ text: "x", finishReason: sent });
    expect(done(await collect(modelFor(s))).finishReason).toBe(expected);
  });
});

describe("createOpenAiChatModel retries", () => {
  it("retries a 429 after the Retry-After the server asked for, then succeeds", async () => {
    const s = await start({ status: 429, headers: { "retry-after": "2" } }, { text: "finally" });
    const { delays, sleep } = fakeSleep();
    const events = await collect(modelFor(s, { sleep }));
    expect(events[0]).toEqual({ type: "retry", attempt: 1, delayMs: 2000, reason: "HTTP 429" });
    expect(delays).toEqual([2000]);
    expect(done(events).text).toBe("finally");
    expect(s.requests).toHaveLength(2);
  });

  it("stops at once when Retry-After asks for longer than the cap, after one request", async () => {
    const s = await start({ status: 429, headers: { "retry-after": "3600" } }, { text: "never asked" });
    const { delays, sleep } = fakeSleep();
    const events: ModelStreamEvent[] = [];
    const error = await failure(modelFor(s, { sleep }), ask(), events);
    expect(error.kind).toBe("rate_limit");
    expect(error.status).toBe(429);
    expect(error.message).toBe(
      `The model endpoint at ${s.baseUrl} is rate limiting requests (HTTP 429) and asked mcpterm to wait 3600 s (about 1 hour from now), more than the 20 s it waits between retries; try again then.`,
    );
    expect(s.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(events).toEqual([]);
  });

  it("reads a Retry-After date the same way, and says how far off it is", async () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    const s = await start({
      status: 503,
      headers: { "retry-after": new Date(now + 7_200_000).toUTCString() },
    });
    const error = await failure(modelFor(s, { sleep: fakeSleep().sleep, now: () => now }));
    expect(error.kind).toBe("server");
    expect(error.message).toBe(
      `The model endpoint at ${s.baseUrl} is unavailable (HTTP 503) and asked mcpterm to wait 7200 s (about 2 hours from now), more than the 20 s it waits between retries; try again then.`,
    );
    expect(s.requests).toHaveLength(1);
  });

  it("gives up on a later Retry-After beyond the cap and counts the retries before it", async () => {
    const s = await start(
      { status: 429, headers: { "retry-after-ms": "10" } },
      { status: 429, headers: { "retry-after-ms": "90000" } },
    );
    const { delays, sleep } = fakeSleep();
    const error = await failure(modelFor(s, { sleep, maxRetryDelayMs: 1500 }));
    expect(error.message).toContain(
      "(HTTP 429) after 1 retry and asked mcpterm to wait 90 s (about 2 minutes from now), more than the 1.5 s",
    );
    expect(delays).toEqual([10]);
    expect(s.requests).toHaveLength(2);
  });

  it("gives up on 429 with a rate_limit error after maxRetries", async () => {
    const limited: ScriptedReply = { status: 429, headers: { "retry-after-ms": "10" } };
    const s = await start(limited, limited, limited);
    const error = await failure(modelFor(s, { sleep: fakeSleep().sleep, maxRetries: 2 }));
    expect(error.kind).toBe("rate_limit");
    expect(error.status).toBe(429);
    expect(s.requests).toHaveLength(3);
  });

  it("does not retry a 401, and never shows the key", async () => {
    const s = await start({
      status: 401,
      body: { error: { message: "Incorrect API key provided: sk-secret-123" } },
    });
    const { delays, sleep } = fakeSleep();
    const error = await failure(modelFor(s, { sleep }));
    expect(error.kind).toBe("auth");
    expect(error.message).toBe(
      `The model endpoint at ${s.baseUrl} rejected the API key from --api-key (HTTP 401); check that key, or pass another with --api-key or OPENAI_API_KEY.`,
    );
    expect(error.message).not.toContain("sk-secret");
    expect(s.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("names where the key, the model and the base URL came from, and asks for a key none was sent", async () => {
    const s = await start({ status: 401 }, { status: 404 }, { status: 401 });
    const sources = {
      apiKey: "OPENAI_API_KEY",
      model: "/model",
      baseUrl: "/p/mcp.config.json: model.baseUrl",
    };
    const rejected = await failure(modelFor(s, {}, { sources }));
    expect(rejected.message).toContain("rejected the API key from OPENAI_API_KEY (HTTP 401); check that key");
    const missing = await failure(modelFor(s, {}, { sources }));
    expect(missing.message).toContain(
      "check the model (/model), and that the base URL (/p/mcp.config.json: model.baseUrl) is the API's base",
    );
    const keyless = await failure(modelFor(s, {}, { apiKey: undefined }));
    expect(keyless.message).toBe(
      `The model endpoint at ${s.baseUrl} wants an API key (HTTP 401); set OPENAI_API_KEY or pass --api-key.`,
    );
  });

  it("says a 403 is the key's access to the model, not a key to set, and never shows the key", async () => {
    const s = await start({
      status: 403,
      body: { error: { message: "Key sk-secret-123 of your org may not use this model" } },
    });
    const error = await failure(modelFor(s));
    expect(error.kind).toBe("auth");
    expect(error.message).toMatch(
      new RegExp(
        `^The model endpoint at \\S+ refused the request \\(HTTP 403\\): the API key may not use model ".+" there; check the model \\(--model\\), or what the key is allowed\\.$`,
      ),
    );
    expect(error.message).not.toContain("sk-secret");
    expect(error.message).not.toContain("set OPENAI_API_KEY");
    expect(s.requests).toHaveLength(1);
  });

  it("reports a 404 as not_found naming the model and base URL", async () => {
    const s = await start({ status: 404 });
    const error = await failure(modelFor(s, { sleep: fakeSleep().sleep }));
    expect(error.kind).toBe("not_found");
    expect(error.message).toContain('"test-model"');
    expect(error.message).toContain(s.baseUrl);
    expect(s.requests).toHaveLength(1);
  });

  it("quotes what a 404 said, which tells a missing model from a wrong base URL", async () => {
    const s = await start({
      status: 404,
      body: { error: { message: "The model `gpt-5x` does not exist." } },
    });
    const error = await failure(modelFor(s, { sleep: fakeSleep().sleep }));
    expect(error.kind).toBe("not_found");
    expect(error.message).toBe(
      `The model endpoint at ${s.baseUrl} answered HTTP 404 (The model \`gpt-5x\` does not exist): it has no model "test-model", or no /chat/completions there; check the model (--model), and that the base URL (--base-url) is the API's base (often ending in /v1).`,
    );
  });

  it("reports a 400 as bad_request with the server's message, without retrying", async () => {
    const s = await start({ status: 400, body: { error: { message: "tools[0].name is invalid." } } });
    const error = await failure(modelFor(s, { sleep: fakeSleep().sleep }));
    expect(error.kind).toBe("bad_request");
    expect(error.message).toBe(
      `The model endpoint at ${s.baseUrl} rejected the request (HTTP 400): tools[0].name is invalid.`,
    );
    expect(s.requests).toHaveLength(1);
  });

  it("gives up on repeated 500s with a server error after maxRetries + 1 requests", async () => {
    const s = await startAnswering(() => ({ status: 500 }));
    const { delays, sleep } = fakeSleep();
    const events: ModelStreamEvent[] = [];
    const error = await failure(modelFor(s, { sleep, maxRetries: 3 }), ask(), events);
    expect(error.kind).toBe("server");
    expect(error.message).toContain("HTTP 500 after 3 retries");
    expect(s.requests).toHaveLength(4);
    expect(events.map((e) => e.type)).toEqual(["retry", "retry", "retry"]);
    expect(delays).toHaveLength(3);
    expect(delays.every((d, i) => i === 0 || d >= (delays[i - 1] ?? 0))).toBe(true);
  });

  it("reports connection refused as a connection error naming the base URL", async () => {
    const closed = await startScriptedModelServer();
    await closed.close();
    const { delays, sleep } = fakeSleep();
    const error = await failure(modelFor(closed, { sleep, maxRetries: 2 }));
    expect(error.kind).toBe("connection");
    expect(error.message).toContain(`Could not reach the model endpoint at ${closed.baseUrl}`);
    expect(error.message).toMatch(
      /\(ECONNREFUSED\) after 2 retries; nothing is listening there; is the server running\?$/,
    );
    expect(delays).toHaveLength(2);
  });

  it("retries a stream that broke before any text, but not one that broke after text", async () => {
    const s = await start(
      { disconnectAfterChunks: 0, text: "never" },
      { text: "second try" },
      { disconnectAfterChunks: 2, text: "partial answer" },
    );
    const model = modelFor(s, { sleep: fakeSleep().sleep });
    expect(done(await collect(model)).text).toBe("second try");

    const events: ModelStreamEvent[] = [];
    const error = await failure(model, ask(), events);
    expect(error.kind).toBe("connection");
    expect(error.message).toContain("broke mid-answer");
    expect(events.filter((e) => e.type === "text").map((e) => e.delta)).toEqual(["part", "ial "]);
    expect(s.requests).toHaveLength(3);
  });
});

describe("createOpenAiChatModel aborts", () => {
  it("stops promptly when aborted while the server hangs", async () => {
    const controller = new AbortController();
    const server = await startAnswering(() => {
      setImmediate(() => {
        controller.abort();
      });
      return { hang: true };
    });
    // The server never answers and the request timeout is far past the test's own, so only the
    // abort can end this request in time; a timeout would fail as "timeout", not "aborted".
    const error = await failure(
      modelFor(server, { requestTimeoutMs: 600_000 }),
      ask({ signal: controller.signal }),
    );
    expect(error.kind).toBe("aborted");
  });

  it("stops promptly when aborted during a retry sleep", async () => {
    const s = await start({ status: 503 });
    const controller = new AbortController();
    const sleeps: string[] = [];
    const sleep = (_ms: number, signal?: AbortSignal) => {
      controller.abort();
      // Ten minutes: only the abort can end this sleep before the test's own timeout.
      return abortableSleep(600_000, signal).then(
        () => void sleeps.push("slept"),
        (error: unknown) => {
          sleeps.push("cut short");
          throw error;
        },
      );
    };
    const error = await failure(modelFor(s, { sleep }), ask({ signal: controller.signal }));
    expect(error.kind).toBe("aborted");
    expect(sleeps).toEqual(["cut short"]);
  });

  it("throws aborted without a request when the signal already fired", async () => {
    const s = await start();
    const error = await failure(modelFor(s), ask({ signal: AbortSignal.abort() }));
    expect(error.kind).toBe("aborted");
    expect(s.requests).toHaveLength(0);
  });
});
