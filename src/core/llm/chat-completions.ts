/**
 * POST /chat/completions with `stream: true`, as every OpenAI-compatible server takes it, and
 * its answer as a stream of chunks. What can go wrong is one of four errors, which
 * model-errors.ts turns into sentences: the HTTP status the server refused with
 * (ModelHttpError), an error it reported inside the stream (ModelStreamError), a stream that
 * is not JSON (SyntaxError), or a 200 that is no chat completion at all (NotAChatAnswer: a
 * proxy's HTML page, a stream that closed before its first chunk); the connection's own are
 * endpoint-http.ts's.
 */
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from "openai/resources/chat/completions";
import { MCPTERM_VERSION } from "../version.js";
import { sendToEndpoint, type ResponseHeaders } from "./endpoint-http.js";
import { endpointUrl } from "./endpoint-label.js";
import { readableServerMessage } from "../text/readable-server-message.js";
import { serverSentEvents } from "./server-sent-events.js";
import { chunkOfWholeAnswer, MAX_WHOLE_ANSWER_BYTES } from "./whole-answer.js";

export interface ChatEndpoint {
  baseUrl: string;
  apiKey: string | undefined;
  /** From sending the request to the response's headers. */
  timeoutMs: number;
}

/**
 * A 200 answer that is no chat completion: a proxy's or a login page's HTML, or a stream that
 * ended before its first chunk. `reason` completes "The model endpoint at <url> …"; it is never
 * retried (the same request gets the same page).
 */
export class NotAChatAnswer extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "NotAChatAnswer";
  }
}

/** How much of a stream's first text is kept, to quote what came instead of chunks. */
const OPENING_CHARS = 4096;

/**
 * Sent when no key is set: local servers ignore it, and a server in front of them that insists
 * on some Authorization header gets one (as the openai package always sent).
 */
const PLACEHOLDER_API_KEY = "not-needed";
/** An error body is a sentence or a small JSON object; past this it is cut. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** How long an error body may take once its status came; the status alone is the answer after. */
const ERROR_BODY_WAIT_MS = 10_000;

/** The server answered with a status other than 2xx. */
export class ModelHttpError extends Error {
  constructor(
    readonly status: number,
    readonly headers: ResponseHeaders,
    /** What the server said, from its body: the `error` field's message, or its text. */
    readonly serverMessage: string | undefined,
    /** Where a redirect (301, 302, 303, 307, 308) points, resolved against the request's URL. */
    readonly redirectTo?: string,
  ) {
    super(serverMessage ? `HTTP ${status}: ${serverMessage}` : `HTTP ${status}`);
    this.name = "ModelHttpError";
  }
}

/** The server sent an error inside a stream that had begun well (HTTP 200). */
export class ModelStreamError extends Error {
  constructor(readonly serverMessage: string | undefined) {
    super(serverMessage ?? "an error event with no message");
    this.name = "ModelStreamError";
  }
}

/**
 * Sends the request, resolving once the response's headers arrive with its chunks to iterate.
 * The signal aborting drops the connection; leaving the iteration early (at [DONE]) keeps it
 * when the rest of the body ends within a moment.
 */
export async function openChatStream(
  endpoint: ChatEndpoint,
  params: ChatCompletionCreateParamsStreaming,
  signal: AbortSignal | undefined,
): Promise<AsyncIterable<ChatCompletionChunk>> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": "application/json",
    "user-agent": `mcpterm/${MCPTERM_VERSION}`,
    authorization: `Bearer ${endpoint.apiKey || PLACEHOLDER_API_KEY}`,
  };
  const url = endpointUrl(endpoint.baseUrl, "/chat/completions");
  const response = await sendToEndpoint({
    url,
    method: "POST",
    headers,
    body: JSON.stringify(params),
    signal,
    timeoutMs: endpoint.timeoutMs,
  });
  if (!response.ok) {
    // The status says enough when the body breaks off or never ends.
    const body = await boundedBody(response);
    const redirectTo = REDIRECTS.has(response.status)
      ? resolved(response.headers.get("location"), url)
      : undefined;
    throw new ModelHttpError(response.status, response.headers, errorBodyMessage(body), redirectTo);
  }
  const type = response.headers.get("content-type") ?? "";
  if (/^application\/json\b/i.test(type)) return wholeAnswer(() => response.readAll(MAX_WHOLE_ANSWER_BYTES));
  // Read as a stream whatever it says it is (a server may label one text/html): what is no
  // stream yields no chunk, and is then told by what it was (see chunksOf).
  const opening = { text: "", html: /^text\/html\b/i.test(type) };
  return chunksOf(serverSentEvents(keepingOpening(response.chunks(), opening)), opening);
}

interface ClosableBody {
  readAll(maxBytes: number): Promise<string | undefined>;
  close(): void;
}

/**
 * An error's body, read up to MAX_ERROR_BODY_BYTES within ERROR_BODY_WAIT_MS, then closed;
 * undefined when it breaks off, never ends or is too long.
 */
async function boundedBody(response: ClosableBody): Promise<string | undefined> {
  const cut = setTimeout(() => {
    response.close();
  }, ERROR_BODY_WAIT_MS);
  try {
    return await response.readAll(MAX_ERROR_BODY_BYTES);
  } catch {
    return undefined;
  } finally {
    clearTimeout(cut);
    response.close();
  }
}

/** What came instead of a completion, as the rest of "The model endpoint at <url> …". */
function noAnswer(opening: Readonly<Opening>): NotAChatAnswer {
  if (opening.html) {
    // A proxy's sign-in page, a gateway's error: by its words.
    const said = readableServerMessage(opening.text);
    return new NotAChatAnswer(
      `answered with an HTML page, not a chat completion${said ? ` (${said})` : ""}; check --base-url: a proxy or a sign-in page may stand in front of the API`,
    );
  }
  const said = sentInstead(opening.text);
  return new NotAChatAnswer(
    `ended its stream without a single chunk of an answer${said ? ` (it sent: ${said})` : ""}`,
  );
}

/** A body's first OPENING_CHARS, and whether it said it was HTML. */
interface Opening {
  text: string;
  readonly html: boolean;
}

/** The body's pieces as they come, its first OPENING_CHARS kept in `opening`. */
async function* keepingOpening(body: AsyncIterable<string>, opening: Opening): AsyncGenerator<string> {
  for await (const piece of body) {
    if (opening.text.length < OPENING_CHARS)
      opening.text += piece.slice(0, OPENING_CHARS - opening.text.length);
    yield piece;
  }
}

/**
 * What a stream that ended before its first chunk sent instead, when it sent anything but
 * server-sent events' own lines (a JSON error without `data:`, plain text): its sentence.
 */
function sentInstead(opening: string): string | undefined {
  const lines = opening
    .split(/\r\n|\r|\n/)
    .filter(
      (line) =>
        line.trim() !== "" &&
        !/^(?:data|event|id|retry)?:/.test(line) &&
        !/^(?:data|event|id|retry)$/.test(line),
    );
  if (lines.length === 0) return undefined;
  const text = lines.join("\n");
  return readableServerMessage(errorBodyMessage(text) ?? text);
}

/** The one chunk of a server that answered the whole completion at once (whole-answer.ts). */
async function* wholeAnswer(read: () => Promise<string | undefined>): AsyncGenerator<ChatCompletionChunk> {
  // Read as the stream would be, inside the iteration: the silence limits cover it.
  const text = await read();
  if (text === undefined) throw new SyntaxError("a JSON answer of more than 16 MB");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SyntaxError("the answer said it was JSON and is not");
  }
  const error = fieldOf(parsed, "error");
  if (error) throw new ModelStreamError(messageOf(error));
  const chunk = chunkOfWholeAnswer(parsed);
  if (!chunk) throw new SyntaxError("the JSON answer is not a chat completion");
  yield chunk;
}

async function* chunksOf(
  events: AsyncIterable<{ event: string | undefined; data: string }>,
  opening: Readonly<Opening>,
) {
  let chunks = 0;
  for await (const { event, data } of events) {
    if (data === "[DONE]") break;
    // An event with no data (a named keep-alive) carries no chunk.
    if (data === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      throw new SyntaxError("the stream sent an event that is not JSON");
    }
    if (event === "error") throw new ModelStreamError(messageOf(fieldOf(parsed, "error") ?? parsed));
    const error = fieldOf(parsed, "error");
    if (error) throw new ModelStreamError(messageOf(error));
    if (typeof parsed !== "object" || parsed === null) {
      throw new SyntaxError("the stream sent an event that is not a JSON object");
    }
    chunks += 1;
    yield parsed as ChatCompletionChunk;
  }
  // Every completion, an empty one too, comes in at least one chunk: none is no answer at all.
  if (chunks === 0) throw noAnswer(opening);
}

/** The statuses that move a request elsewhere, when they say where (Location). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function resolved(location: string | undefined, base: string): string | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, base).toString();
  } catch {
    return undefined;
  }
}

/**
 * The sentence in an error body: OpenAI's `{"error": {"message": ...}}`, a bare `{"error":
 * "..."}` (llama.cpp, Ollama), FastAPI's `{"detail": ...}`, or the text of a body that is not JSON.
 */
export function errorBodyMessage(body: string | undefined): string | undefined {
  if (body === undefined || body.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  const said = fieldOf(parsed, "error") ?? fieldOf(parsed, "detail") ?? fieldOf(parsed, "message");
  return said === undefined ? undefined : messageOf(said);
}

function fieldOf(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null && name in value
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

function messageOf(error: unknown): string | undefined {
  if (error === undefined || error === null || error === "") return undefined;
  if (typeof error === "string") return error;
  const message = fieldOf(error, "message");
  if (typeof message === "string" && message !== "") return message;
  return JSON.stringify(message === undefined || message === null || message === "" ? error : message);
}
