/**
 * Turns what a chat request throws (chat-completions.ts, endpoint-http.ts) into a retry decision
 * and, when retrying is over, one `LlmError` sentence. Kept apart from the stream loop so the
 * loop reads as a loop.
 */
import { LlmError } from "../errors.js";
import { ModelHttpError, ModelStreamError, NotAChatAnswer } from "./chat-completions.js";
import { EndpointConnectionError, EndpointTimeoutError } from "./endpoint-http.js";
import { endpointLabel } from "./endpoint-label.js";
import type { HeaderSource, RequestFailure } from "./retry-policy.js";
import type { SettingSources } from "./types.js";
import type { StallLimit } from "./stream-watchdog.js";
import { formatLimit, roughlyFromNow } from "./wait-text.js";
import { readableServerMessage } from "../text/readable-server-message.js";

export interface ClassifiedError {
  /** Undefined when the error is not a failed request (a malformed stream, an in-stream error event): never retried. */
  failure: RequestFailure | undefined;
  headers: HeaderSource;
  serverMessage: string | undefined;
  /** Where a redirect points (absolute), when the failure is one. */
  redirectTo?: string | undefined;
  protocol: boolean;
  /** For a 200 that is no chat completion (NotAChatAnswer): what came, completing the sentence. */
  notAnAnswer?: string;
}

/** Returns undefined for errors that are not about the model endpoint at all, i.e. bugs. */
export function classifyError(error: unknown): ClassifiedError | undefined {
  const none = { headers: undefined, serverMessage: undefined, protocol: false };
  if (error instanceof EndpointTimeoutError) return { ...none, failure: { type: "timeout" } };
  if (error instanceof EndpointConnectionError)
    return { ...none, failure: { type: "network", code: error.code } };
  if (error instanceof ModelHttpError) {
    const failure = { type: "http", status: error.status } as const;
    const { headers, serverMessage, redirectTo } = error;
    return { failure, headers, serverMessage, protocol: false, redirectTo };
  }
  // An `error` event inside a 200 stream: the server said what went wrong, so pass it on.
  if (error instanceof ModelStreamError)
    return { ...none, failure: undefined, serverMessage: error.serverMessage };
  if (error instanceof SyntaxError) return { ...none, failure: undefined, protocol: true };
  if (error instanceof NotAChatAnswer)
    return { ...none, failure: undefined, protocol: true, notAnAnswer: error.reason };
  return undefined;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

/** A short phrase for `retry` events, e.g. "HTTP 429" or "connection refused (ECONNREFUSED)". */
export function describeFailure(failure: RequestFailure): string {
  switch (failure.type) {
    case "http":
      return `HTTP ${failure.status}`;
    case "timeout":
      return "request timed out";
    case "network":
      return failure.code === undefined ? "connection failed" : `connection failed (${failure.code})`;
  }
}

export interface ErrorContext {
  baseUrl: string;
  model: string;
  retries: number;
  timeoutMs: number;
  apiKey: string | undefined;
  /** Where the settings came from, to point at the one to fix; the flags are named when unknown. */
  sources: SettingSources;
}

export function toLlmError(classified: ClassifiedError, context: ErrorContext, cause: unknown): LlmError {
  const { baseUrl, model } = context;
  // The sentence ends with our own full stop, so the server's is trimmed.
  const said = classified.serverMessage && readableServerMessage(classified.serverMessage);
  const detail = said ? `: ${redact(said, context.apiKey).replace(/[.\s]+$/, "")}` : "";
  const after = afterRetries(context.retries);
  const failure = classified.failure;
  const make = (kind: LlmError["kind"], message: string, status?: number) =>
    new LlmError(kind, message, status, { cause });

  if (isContextLengthFailure(classified)) {
    return make(
      "context_length",
      `The model endpoint at ${baseUrl} rejected the request as longer than the model's context window${detail}; run /compact or /clear to make room, or narrow the tools (see /stats).`,
      failure?.type === "http" ? failure.status : undefined,
    );
  }
  if (failure === undefined) {
    if (classified.notAnAnswer !== undefined)
      return make(
        "protocol",
        `The model endpoint at ${baseUrl} ${redact(classified.notAnAnswer, context.apiKey)}.`,
      );
    if (classified.protocol) {
      return make("protocol", `The model endpoint at ${baseUrl} sent a stream mcpterm could not parse.`);
    }
    return make("server", `The model endpoint at ${baseUrl} reported an error mid-stream${detail}.`);
  }
  switch (failure.type) {
    case "timeout":
      return make(
        "connection",
        `The model endpoint at ${baseUrl} did not answer within ${context.timeoutMs} ms${after}; is the server running and the model loaded?`,
      );
    case "network":
      return make(
        "connection",
        `Could not reach the model endpoint at ${baseUrl} (${failure.code ?? "connection failed"})${after}; ${unreachable(failure.code, context.sources)}`,
      );
    case "http": {
      const movedTo = classified.redirectTo === undefined ? undefined : endpointLabel(classified.redirectTo);
      const { sources, apiKey } = context;
      return httpError(
        failure.status,
        { baseUrl, model, detail, after, movedTo, sources, keySet: apiKey !== undefined },
        make,
      );
    }
  }
}

/** Where to raise each limit, named in the sentence so the person can act on it. */
const STALL_SETTING = {
  first_token: {
    where: "before its answer began",
    key: "model.firstTokenTimeoutMs (or MCPTERM_MODEL_FIRST_TOKEN_TIMEOUT_MS)",
    why: "if the model needs longer to start",
  },
  idle: {
    where: "mid-answer",
    key: "model.idleTimeoutMs (or MCPTERM_MODEL_IDLE_TIMEOUT_MS)",
    why: "if it is just slow",
  },
} as const;

export function stallError(stall: StallLimit, context: ErrorContext, cause: unknown): LlmError {
  const { where, key, why } = STALL_SETTING[stall.phase];
  const after = afterRetries(context.retries);
  return new LlmError(
    "stalled",
    `The model endpoint at ${context.baseUrl} went silent for ${formatLimit(stall.limitMs)} ${where}${after}; check the server, or raise ${key} ${why}.`,
    undefined,
    { cause },
  );
}

/** An answer that kept streaming past MAX_ANSWER_MS; not retried. */
export function answerTooLongError(
  limitMs: number,
  context: Omit<ErrorContext, "retries">,
  cause: unknown,
): LlmError {
  return new LlmError(
    "stalled",
    `The model endpoint at ${context.baseUrl} kept one answer streaming for more than ${formatLimit(limitMs)} without finishing, so mcpterm stopped it; check the server (the part already shown is kept).`,
    undefined,
    { cause },
  );
}

/** A short phrase for the `retry` event after a stall. */
export function describeStall(stall: StallLimit): string {
  return `no data for ${formatLimit(stall.limitMs)}`;
}

/**
 * The server asked to wait longer than mcpterm ever waits between retries: stop now and say when
 * it will take requests again, instead of spending the retries on waits it already refused.
 */
export function retryAfterTooLongError(
  failure: RequestFailure,
  waits: { askedMs: number; maxRetryDelayMs: number },
  context: ErrorContext,
  cause: unknown,
): LlmError {
  const { baseUrl, retries } = context;
  const after = afterRetries(retries);
  const status = failure.type === "http" ? failure.status : undefined;
  const state =
    status === 429
      ? "is rate limiting requests (HTTP 429)"
      : status === 503
        ? "is unavailable (HTTP 503)"
        : `failed (${describeFailure(failure)})`;
  const seconds = Math.ceil(waits.askedMs / 1000);
  return new LlmError(
    status === 429 ? "rate_limit" : "server",
    `The model endpoint at ${baseUrl} ${state}${after} and asked mcpterm to wait ${seconds} s (${roughlyFromNow(waits.askedMs)}), more than the ${formatLimit(waits.maxRetryDelayMs)} it waits between retries; try again then.`,
    status,
    { cause },
  );
}

/** What a connection that failed with `code` most likely means, and where to look. */
function unreachable(code: string | undefined, sources: SettingSources): string {
  const where = sources.baseUrl ?? "--base-url";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return `its host name did not resolve: check the address (${where}) and this machine's network.`;
  if (code === "ECONNREFUSED") return "nothing is listening there; is the server running?";
  return `check the address (${where}), that the server is running, and this machine's network.`;
}

function httpError(
  status: number,
  text: {
    baseUrl: string;
    model: string;
    detail: string;
    after: string;
    movedTo: string | undefined;
    sources: SettingSources;
    keySet: boolean;
  },
  make: (kind: LlmError["kind"], message: string, status?: number) => LlmError,
): LlmError {
  const { baseUrl, model, detail, after, movedTo, sources } = text;
  const modelSetting = sources.model ?? "--model";
  // The server's own message is left out of both: some echo part of the key back.
  if (status === 401) {
    return make(
      "auth",
      text.keySet
        ? `The model endpoint at ${baseUrl} rejected the API key from ${sources.apiKey ?? "--api-key"} (HTTP 401); check that key, or pass another with --api-key or OPENAI_API_KEY.`
        : `The model endpoint at ${baseUrl} wants an API key (HTTP 401); set OPENAI_API_KEY or pass --api-key.`,
      status,
    );
  }
  if (status === 403) {
    // Most often a key that works but may not use this model or endpoint (an organization's
    // policy, a region, a plan): telling the person to set the key they set sends them astray.
    return make(
      "auth",
      `The model endpoint at ${baseUrl} refused the request (HTTP 403): the API key may not use model "${model}" there; check the model (${modelSetting}), or what the key is allowed.`,
      status,
    );
  }
  if (movedTo !== undefined) {
    // Not followed: the request carries the key, and the base URL is the place the person chose.
    return make(
      "bad_request",
      `The model endpoint at ${baseUrl} redirected the request to ${movedTo} (HTTP ${status}), which mcpterm does not follow with your key; if you trust that address, point --base-url (or OPENAI_BASE_URL) at it, without /chat/completions.`,
      status,
    );
  }
  if (status === 404) {
    return make(
      "not_found",
      // The server's words say which of the two it is (`The model \`x\` does not exist`).
      `The model endpoint at ${baseUrl} answered HTTP 404${detail === "" ? "" : ` (${detail.replace(/^: /, "")})`}: it has no model "${model}", or no /chat/completions there; check the model (${modelSetting}), and that the base URL (${sources.baseUrl ?? "--base-url"}) is the API's base (often ending in /v1).`,
      status,
    );
  }
  if (status === 429) {
    return make(
      "rate_limit",
      `The model endpoint at ${baseUrl} is still rate limiting requests (HTTP 429)${after}; wait a moment and try again.`,
      status,
    );
  }
  if (status >= 500 || status === 408 || status === 409) {
    return make(
      "server",
      `The model endpoint at ${baseUrl} failed with HTTP ${status}${after}${detail}.`,
      status,
    );
  }
  return make(
    "bad_request",
    `The model endpoint at ${baseUrl} rejected the request (HTTP ${status})${detail}.`,
    status,
  );
}

/**
 * How servers say a request did not fit: OpenAI and vLLM "maximum context length" and
 * `context_length_exceeded`, llama.cpp "exceeds the available context size", Anthropic-style
 * gateways "prompt is too long", LM Studio and Ollama "context length" / "context window".
 */
const CONTEXT_LENGTH_PATTERNS = [
  /maximum context length/i,
  /context[_ ]length[_ ]exceeded/i,
  /exceeds? (?:the )?(?:available )?context (?:size|window|length)/i,
  /context (?:window|size|length) (?:is )?(?:exceeded|too small|of only)/i,
  /prompt is too long/i,
  /input (?:is )?too long/i,
  /reduce the length of the messages/i,
  /maximum (?:prompt|model) length is/i,
  /exceed_context_size_error/i,
];

/**
 * Only a refused request (400, 413 payload too large, 422) or an error inside the stream can be
 * about the context: a 429 "too many tokens per minute" is a rate limit, a 5xx a failure.
 */
export function isContextLengthFailure(classified: ClassifiedError): boolean {
  const { failure } = classified;
  const refused =
    failure === undefined || (failure.type === "http" && [400, 413, 422].includes(failure.status));
  return refused && isContextLengthMessage(classified.serverMessage);
}

export function isContextLengthMessage(message: string | undefined): boolean {
  return message !== undefined && CONTEXT_LENGTH_PATTERNS.some((pattern) => pattern.test(message));
}

/** " after 2 retries", or nothing for the first try. */
function afterRetries(retries: number): string {
  return retries > 0 ? ` after ${retries} ${retries === 1 ? "retry" : "retries"}` : "";
}

function redact(text: string, apiKey: string | undefined): string {
  return apiKey && apiKey.length >= 4 ? text.split(apiKey).join("***") : text;
}
