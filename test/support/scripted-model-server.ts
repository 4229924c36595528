/**
 * A real HTTP server that speaks the OpenAI chat-completions format and answers from a script.
 * Tests drive the real `openai` client against it instead of mocking the package, so request
 * shapes, SSE parsing, retries and aborts are exercised end to end.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type ScriptedReply =
  | {
      text: string;
      chunkSize?: number;
      /** Sends one chunk this often, as a model streams token by token (unset: all at once). */
      everyMs?: number;
      finishReason?: string | null;
      usage?: {
        prompt_tokens: number;
        completion_tokens: number;
        prompt_tokens_details?: { cached_tokens: number };
      };
    }
  | {
      toolCalls: Array<{ id?: string; name: string; arguments: string }>;
      text?: string;
      splitArgsInto?: number;
      finishReason?: string | null;
    }
  /** An HTTP error response, e.g. 429 with `{ "retry-after": "1" }`. */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answers until the client aborts or the server closes. */
  | { hang: true }
  /** Answers `text` only after `afterMs`: a model that thinks for a while before it speaks. */
  | { afterMs: number; text: string }
  /** Answers `text` once `until` settles: a test orders the answer after something it waits for. */
  | { until: Promise<unknown>; text: string }
  /** Streams some chunks, then destroys the socket. */
  | { disconnectAfterChunks: number; text: string }
  /**
   * Streams some chunks, then sends nothing more, keeping the connection open (a stalled
   * stream); with `keepAliveEveryMs`, it sends an empty chunk that often, saying nothing.
   */
  | { stallAfterChunks: number; text: string; keepAliveEveryMs?: number; keepAlive?: KeepAlive };

/**
 * What a stalled stream keeps sending: nothing new (an empty delta, the same usage, the same
 * finish reason, an empty tool-call piece), or reasoning that never ends.
 */
export type KeepAlive = "empty" | "usage" | "finish" | "tool-piece" | "reasoning";

export interface RecordedRequest {
  // The request body is whatever JSON the client sent; tests read arbitrary fields from it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Record<string, string | string[] | undefined>;
  receivedAt: number;
  /** The prompt's size as this server counts tokens (see promptTokensOf). */
  promptTokens: number;
  /** Set when the server refused it as longer than its `contextWindow`. */
  refused?: boolean;
}

export interface ScriptedServerOptions {
  /**
   * Behave like llama-server started with `-c <contextWindow>`: a request whose prompt is longer
   * is refused with llama.cpp's own HTTP 400, before the script is asked.
   */
  contextWindow?: number;
  /** How this server counts a prompt's tokens (promptTokensOf when unset): a tokenizer's quirks, such as emoji at three tokens. */
  countTokens?: (body: unknown) => number;
  /** What GET /models answers (e.g. a llama.cpp, vLLM or LM Studio listing); 404 when unset. */
  models?: unknown;
  /** Other GET routes by path (llama.cpp's /props, LM Studio's /api/v0/models/<id>, Ollama's /api/ps). */
  routes?: Record<string, unknown>;
  /** GET /models is answered only once `releaseModels()` is called: a listing that stalls. */
  stallModels?: boolean;
}

export interface ScriptedModelServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  requests: RecordedRequest[];
  /**
   * What happened, in order: `GET <path>` and `POST <path>` as each request arrives, and
   * `answered GET <path>` once a stalled listing was answered (`stallModels`), or `abandoned
   * GET <path>` when the client gave up on it first.
   */
  events: string[];
  /** Answers the stalled GET /models requests, and any later one at once. */
  releaseModels(): void;
  enqueue(...replies: ScriptedReply[]): void;
  /** Closes the server and destroys open sockets, including hung ones. */
  close(): Promise<void>;
}

type Script = ScriptedReply[] | ((request: RecordedRequest, index: number) => ScriptedReply);

const DEFAULT_CHUNK_SIZE = 4;
const DEFAULT_ARG_PIECES = 3;

export async function startScriptedModelServer(
  script?: Script,
  options: ScriptedServerOptions = {},
): Promise<ScriptedModelServer> {
  const queue: ScriptedReply[] = Array.isArray(script) ? [...script] : [];
  const fallback = typeof script === "function" ? script : undefined;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const nextReply = (request: RecordedRequest, index: number): ScriptedReply | undefined =>
    queue.shift() ?? fallback?.(request, index);

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: `scripted server bug: ${String(error)}` } });
      else res.destroy();
    });
  });

  const events: string[] = [];
  let modelsStalled = options.stallModels === true;
  const stalled: Array<() => void> = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? "").split("?")[0] ?? "";
    events.push(`${req.method ?? ""} ${path}`);
    if (modelsStalled && req.method === "GET" && path.endsWith("/models")) {
      let answered = false;
      // A client that gives up (a timeout) closes the request: that is an event too.
      res.on("close", () => {
        if (!answered) events.push(`abandoned GET ${path}`);
      });
      stalled.push(() => {
        answered = true;
        events.push(`answered GET ${path}`);
        answerGet(req, res);
      });
      return;
    }
    if (req.method === "GET") {
      answerGet(req, res);
      return;
    }
    const route = routeFor(req, options);
    if (route !== undefined) {
      sendJson(res, 200, route);
      return;
    }
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      sendJson(res, 404, {
        error: { message: `scripted server: no route ${req.method ?? ""} ${req.url ?? ""}` },
      });
      return;
    }
    const body = parseJson(raw);
    const recorded: RecordedRequest = {
      body,
      headers: req.headers,
      receivedAt: Date.now(),
      promptTokens: (options.countTokens ?? promptTokensOf)(body),
    };
    const index = requests.length;
    requests.push(recorded);
    const window = options.contextWindow;
    if (window !== undefined && recorded.promptTokens > window) {
      recorded.refused = true;
      sendJson(res, 400, contextSizeError(recorded.promptTokens, window));
      return;
    }
    const reply = nextReply(recorded, index);
    if (!reply) {
      sendJson(res, 500, {
        error: {
          message: `scripted model server: script exhausted at request #${index + 1}`,
          type: "script",
        },
      });
      return;
    }
    respond(res, reply, recorded, index, window !== undefined);
  }

  function answerGet(req: IncomingMessage, res: ServerResponse): void {
    const route = routeFor(req, options);
    if (route !== undefined) sendJson(res, 200, route);
    else
      sendJson(res, 404, {
        error: { message: `scripted server: no route ${req.method ?? ""} ${req.url ?? ""}` },
      });
  }

  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    events,
    releaseModels: () => {
      modelsStalled = false;
      for (const answer of stalled.splice(0)) answer();
    },
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function respond(
  res: ServerResponse,
  reply: ScriptedReply,
  request: RecordedRequest,
  index: number,
  countsWholePrompt: boolean,
): void {
  if ("hang" in reply) return;
  if ("afterMs" in reply) {
    const later = setTimeout(
      () => respond(res, { text: reply.text }, request, index, countsWholePrompt),
      reply.afterMs,
    );
    res.once("close", () => clearTimeout(later));
    return;
  }
  if ("until" in reply) {
    let closed = false;
    res.once("close", () => (closed = true));
    const answer = (): void => {
      if (!closed) respond(res, { text: reply.text }, request, index, countsWholePrompt);
    };
    void reply.until.then(answer, answer);
    return;
  }
  if ("status" in reply) {
    const body = reply.body ?? { error: { message: `scripted HTTP ${reply.status}`, type: "scripted" } };
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    res.end(JSON.stringify(body));
    return;
  }
  const body = bodyOf(request);
  const model = typeof body.model === "string" ? body.model : "scripted-model";
  const meta = { id: `chatcmpl-scripted-${index + 1}`, created: Math.floor(Date.now() / 1000), model };
  const toolCalls = "toolCalls" in reply ? reply.toolCalls.map((call, i) => withId(call, index, i)) : [];
  const text = reply.text ?? "";
  const finishReason = finishReasonOf(reply);
  const usage =
    "usage" in reply && reply.usage
      ? reply.usage
      : estimateUsage(request, text, toolCalls, countsWholePrompt);

  if (body.stream !== true) {
    sendJson(res, 200, completion(meta, text, toolCalls, finishReason, usage));
    return;
  }

  const deltas: unknown[] = [
    ...textDeltas(text, "chunkSize" in reply ? reply.chunkSize : undefined),
    ...toolCallDeltas(toolCalls, "splitArgsInto" in reply ? reply.splitArgsInto : undefined),
  ];
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const chunks = deltas.map((delta, i) =>
    chunk(meta, [
      { index: 0, delta: i === 0 ? { role: "assistant", ...(delta as object) } : delta, finish_reason: null },
    ]),
  );

  if ("stallAfterChunks" in reply) {
    res.write(chunks.slice(0, reply.stallAfterChunks).map(sse).join(""));
    if (reply.keepAliveEveryMs !== undefined) {
      const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
      const pieces: Record<KeepAlive, string> = {
        empty: sse(chunk(meta, [{ index: 0, delta: {}, finish_reason: null }])),
        usage: sse(chunk(meta, [], usage)),
        finish: sse(chunk(meta, [{ index: 0, delta: {}, finish_reason: "stop" }])),
        "tool-piece": sse(
          chunk(meta, [{ index: 0, delta: { tool_calls: [{ index: 0 }] }, finish_reason: null }]),
        ),
        reasoning: sse(
          chunk(meta, [{ index: 0, delta: { reasoning_content: "hmm " }, finish_reason: null }]),
        ),
      };
      const piece = pieces[reply.keepAlive ?? "empty"];
      const timer = setInterval(() => res.write(piece), reply.keepAliveEveryMs);
      res.on("close", () => clearInterval(timer));
    }
    return;
  }

  if ("disconnectAfterChunks" in reply) {
    const sent = chunks.slice(0, reply.disconnectAfterChunks);
    // Destroy only after the written chunks have left, so the client really sees them first.
    res.write(sent.map(sse).join(""), () => {
      res.socket?.destroy();
    });
    return;
  }

  if (finishReason !== null) chunks.push(chunk(meta, [{ index: 0, delta: {}, finish_reason: finishReason }]));
  if (body.stream_options?.include_usage === true) {
    chunks.push(chunk(meta, [], { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens }));
  }
  const everyMs = "everyMs" in reply ? reply.everyMs : undefined;
  if (everyMs === undefined) {
    for (const c of chunks) res.write(sse(c));
    res.end("data: [DONE]\n\n");
    return;
  }
  const pending = [...chunks];
  const timer = setInterval(() => {
    const next = pending.shift();
    if (next !== undefined) {
      res.write(sse(next));
      return;
    }
    clearInterval(timer);
    res.end("data: [DONE]\n\n");
  }, everyMs);
  res.on("close", () => clearInterval(timer));
}

/** The few request fields the server reacts to; anything may be missing from a malformed request. */
interface RequestView {
  model?: unknown;
  stream?: unknown;
  stream_options?: { include_usage?: unknown };
  messages?: unknown;
}

function bodyOf(request: RecordedRequest): RequestView {
  const body: unknown = request.body;
  return typeof body === "object" && body !== null ? body : {};
}

interface ScriptedCall {
  id: string;
  name: string;
  arguments: string;
}

function withId(
  call: { id?: string; name: string; arguments: string },
  request: number,
  i: number,
): ScriptedCall {
  return { id: call.id ?? `call_${request + 1}_${i + 1}`, name: call.name, arguments: call.arguments };
}

function finishReasonOf(reply: ScriptedReply): string | null {
  if ("finishReason" in reply && reply.finishReason !== undefined) return reply.finishReason;
  return "toolCalls" in reply ? "tool_calls" : "stop";
}

function textDeltas(text: string, chunkSize = DEFAULT_CHUNK_SIZE): Array<{ content: string }> {
  const deltas: Array<{ content: string }> = [];
  for (let at = 0; at < text.length; at += Math.max(1, chunkSize)) {
    deltas.push({ content: text.slice(at, at + Math.max(1, chunkSize)) });
  }
  return deltas;
}

/** OpenAI's shape: a header delta per call (index, id, type, name), then argument fragments by index only. */
function toolCallDeltas(calls: ScriptedCall[], pieces = DEFAULT_ARG_PIECES): unknown[] {
  const fragments = calls.map((call) => splitInto(call.arguments, pieces));
  const rounds = Math.max(0, ...fragments.map((f) => f.length));
  const deltas: unknown[] = calls.map((call, index) => ({
    tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
  }));
  // Interleave the calls' fragments so the client must assemble by index, not by arrival order.
  for (let round = 0; round < rounds; round++) {
    fragments.forEach((parts, index) => {
      const part = parts[round];
      if (part !== undefined) deltas.push({ tool_calls: [{ index, function: { arguments: part } }] });
    });
  }
  return deltas;
}

function splitInto(text: string, pieces: number): string[] {
  if (text.length === 0) return [];
  const size = Math.ceil(text.length / Math.max(1, pieces));
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += size) parts.push(text.slice(at, at + size));
  return parts;
}

interface Meta {
  id: string;
  created: number;
  model: string;
}

function chunk(meta: Meta, choices: unknown[], usage?: unknown): unknown {
  return { ...meta, object: "chat.completion.chunk", choices, ...(usage ? { usage } : {}) };
}

function completion(
  meta: Meta,
  text: string,
  toolCalls: ScriptedCall[],
  finishReason: string | null,
  usage: { prompt_tokens: number; completion_tokens: number },
): unknown {
  const message = {
    role: "assistant",
    content: text.length > 0 || toolCalls.length === 0 ? text : null,
    ...(toolCalls.length > 0
      ? {
          tool_calls: toolCalls.map((c) => ({
            id: c.id,
            type: "function",
            function: { name: c.name, arguments: c.arguments },
          })),
        }
      : {}),
  };
  return {
    ...meta,
    object: "chat.completion",
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/**
 * A deterministic stand-in for token counts: roughly four characters a token, of the messages
 * (or, for a server with a context window, of the whole prompt it checks against it).
 */
function estimateUsage(
  request: RecordedRequest,
  text: string,
  toolCalls: ScriptedCall[],
  countsWholePrompt: boolean,
): { prompt_tokens: number; completion_tokens: number } {
  const prompt = countsWholePrompt
    ? request.promptTokens
    : Math.ceil(JSON.stringify(bodyOf(request).messages ?? []).length / 4);
  const completionChars = text.length + toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  return { prompt_tokens: prompt, completion_tokens: Math.ceil(completionChars / 4) };
}

/** The prompt as a server's template would see it, messages and tool definitions, four characters a token. */
export function promptTokensOf(body: unknown): number {
  const view =
    typeof body === "object" && body !== null ? (body as { messages?: unknown; tools?: unknown }) : {};
  return Math.ceil(JSON.stringify({ messages: view.messages ?? [], tools: view.tools ?? [] }).length / 4);
}

/** llama-server's answer to a prompt longer than its `-c`, word for word. */
function contextSizeError(promptTokens: number, window: number): unknown {
  return {
    error: {
      code: 400,
      message: `request (${promptTokens} tokens) exceeds the available context size (${window} tokens), try increasing it`,
      type: "exceed_context_size_error",
      n_prompt_tokens: promptTokens,
      n_ctx: window,
    },
  };
}

/** The body of a GET route the options define, or undefined for any other request. */
function routeFor(req: IncomingMessage, options: ScriptedServerOptions): unknown {
  if (req.method !== "GET" || req.url === undefined) return undefined;
  const path = req.url.split("?")[0] ?? "";
  if (path.endsWith("/models") && options.models !== undefined && path.startsWith("/v1"))
    return options.models;
  return options.routes?.[path];
}

function sse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      resolve(Buffer.concat(parts).toString("utf8"));
    });
    req.on("error", reject);
  });
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
