/**
 * The ChatModel over an OpenAI-compatible endpoint's streaming chat completions
 * (chat-completions.ts). This loop retries, so each retry is a visible `retry` event and no wait
 * exceeds our cap.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { LlmError } from "../errors.js";
import type { ChatEndpoint } from "./chat-completions.js";
import { DEFAULT_BASE_URL, endpointLabel } from "./endpoint-label.js";
import {
  answerTooLongError,
  classifyError,
  describeFailure,
  describeStall,
  isAbortError,
  isContextLengthFailure,
  retryAfterTooLongError,
  stallError,
  toLlmError,
  type ErrorContext,
} from "./model-errors.js";
import { toOpenAiMessages, toOpenAiTools } from "./openai-messages.js";
import { backoffDelayMs, DEFAULT_MAX_RETRY_DELAY_MS, isRetryable, planRetryWait } from "./retry-policy.js";
import {
  AnswerOverLimit,
  Attempt,
  MAX_ANSWER_MS,
  streamAttempt,
  type SilenceLimits,
} from "./stream-attempt.js";
import {
  DEFAULT_FIRST_TOKEN_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  StreamStalled,
  startRealTimer,
  type StartTimer,
} from "./stream-watchdog.js";
import type { ChatModel, ModelRequest, ModelSettings, ModelStreamEvent } from "./types.js";

const DEFAULT_MAX_RETRIES = 4;
/** Time to response headers; generous because a local server may load the model first. */
const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
/** Retries a request whose headers never came gets: one (see retryAfterFailure). */
const MAX_TIMEOUT_RETRIES = 1;
/** Each stall already cost a whole silence limit, so one fresh try is the most worth waiting for. */
const MAX_STALL_RETRIES = 1;

export interface OpenAiChatModelOptions {
  maxRetries?: number;
  maxRetryDelayMs?: number;
  requestTimeoutMs?: number;
  /** Waits between retries; must reject promptly when `signal` aborts. Injected by tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds since the epoch, for `Retry-After` dates. Injected by tests. */
  now?: () => number;
  /** The silence timers; injected by tests to see that none outlives a stream. */
  startTimer?: StartTimer;
  /** The longest one answer may stream, whatever it sends (MAX_ANSWER_MS); tests shorten it. */
  maxAnswerMs?: number;
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal });
}

export function createOpenAiChatModel(
  settings: ModelSettings,
  options: OpenAiChatModelOptions = {},
): ChatModel {
  const baseUrl = settings.baseUrl ?? DEFAULT_BASE_URL;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const loop: StepLoop = {
    endpoint: { baseUrl, apiKey: settings.apiKey, timeoutMs },
    model: settings.model,
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.maxTokens === undefined ? {} : { maxTokens: settings.maxTokens }),
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
    sleep: options.sleep ?? abortableSleep,
    now: options.now ?? Date.now,
    limits: {
      firstTokenMs: settings.firstTokenTimeoutMs ?? DEFAULT_FIRST_TOKEN_TIMEOUT_MS,
      idleMs: settings.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      answerMs: options.maxAnswerMs ?? MAX_ANSWER_MS,
    },
    startTimer: options.startTimer ?? startRealTimer,
    errorContext: {
      baseUrl: endpointLabel(baseUrl),
      model: settings.model,
      timeoutMs,
      apiKey: settings.apiKey,
      sources: settings.sources ?? {},
    },
  };
  return {
    model: settings.model,
    ...(settings.maxTokens === undefined ? {} : { maxTokens: settings.maxTokens }),
    stream: (request) => streamStep(loop, request),
  };
}

interface StepLoop {
  endpoint: ChatEndpoint;
  model: string;
  /** The person's model.temperature and model.maxTokens; a request's own (sampling's) wins. */
  temperature?: number;
  maxTokens?: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  limits: SilenceLimits;
  startTimer: StartTimer;
  errorContext: Omit<ErrorContext, "retries">;
}

const aborted = (cause?: unknown) =>
  new LlmError("aborted", "The model request was cancelled.", undefined, { cause });

interface Retry {
  delayMs: number;
  reason: string;
}

async function* streamStep(loop: StepLoop, request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
  const { signal } = request;
  const maxTokens = request.maxTokens ?? loop.maxTokens;
  const temperature = request.temperature ?? loop.temperature;
  const params: ChatCompletionCreateParamsStreaming = {
    model: loop.model,
    messages: toOpenAiMessages(request.messages),
    stream: true,
    stream_options: { include_usage: true },
    ...(request.tools.length > 0 ? { tools: toOpenAiTools(request.tools) } : {}),
    // max_tokens, not max_completion_tokens: llama.cpp, vLLM, LM Studio and Ollama all read it.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
    ...(temperature === undefined ? {} : { temperature }),
  };
  const attemptOptions = {
    signal,
    limits: loop.limits,
    startTimer: loop.startTimer,
    ...(request.onAnswering ? { onAnswering: request.onAnswering } : {}),
  };

  for (let retries = 0, stallRetries = 0, timeoutRetries = 0; ; retries++) {
    if (signal?.aborted) throw aborted(signal.reason);
    const attempt = new Attempt();
    try {
      yield* streamAttempt(loop.endpoint, params, attempt, attemptOptions);
    } catch (error) {
      // The caller's abort wins over anything it caused, a cancelled stall timer included.
      if (signal?.aborted || isAbortError(error)) throw aborted(error);
      if (error instanceof AnswerOverLimit) throw answerTooLongError(error.limitMs, loop.errorContext, error);
      let retry: Retry;
      if (error instanceof StreamStalled) {
        retry = retryAfterStall(loop, error, attempt, { retries, stallRetries });
        stallRetries++;
      } else {
        const { silence, ...failed } = retryAfterFailure(loop, error, attempt, { retries, timeoutRetries });
        if (silence) timeoutRetries++;
        retry = failed;
      }
      yield { type: "retry", attempt: retries + 1, ...retry };
      try {
        await loop.sleep(retry.delayMs, signal);
      } catch (sleepError) {
        if (signal?.aborted) throw aborted(sleepError);
        throw sleepError;
      }
      continue;
    }
    // A stream that ended as the signal aborted may have ended quietly: ask the signal.
    if (signal?.aborted) throw aborted(signal.reason);
    yield attempt.done();
    return;
  }
}

/** How to retry a stalled attempt, or the `LlmError` that ends the step. */
function retryAfterStall(
  loop: StepLoop,
  stalled: StreamStalled,
  attempt: Attempt,
  counts: { retries: number; stallRetries: number },
): Retry {
  const { retries, stallRetries } = counts;
  // Text already shown stays, marked interrupted; a replay could tell a different story.
  if (attempt.shownText || stallRetries >= MAX_STALL_RETRIES || retries >= loop.maxRetries) {
    throw stallError(stalled.stall, { ...loop.errorContext, retries }, stalled);
  }
  const delayMs = backoffDelayMs(retries + 1, { maxRetryDelayMs: loop.maxRetryDelayMs });
  return { delayMs, reason: describeStall(stalled.stall) };
}

/**
 * How to retry a failed request, or the error that ends the step (rethrown as is when it is a
 * bug); `silence` says it is a request whose headers never came, which is counted apart.
 */
function retryAfterFailure(
  loop: StepLoop,
  error: unknown,
  attempt: Attempt,
  counts: { retries: number; timeoutRetries: number },
): Retry & { silence: boolean } {
  const { retries, timeoutRetries } = counts;
  const classified = classifyError(error);
  if (!classified) throw error;
  if (attempt.shownText) {
    // An error the server sent inside the stream says what went wrong: that is the sentence.
    if (classified.failure === undefined && !classified.protocol && classified.serverMessage)
      throw toLlmError(classified, { ...loop.errorContext, retries }, error);
    // The person already saw part of this answer; replaying the request could show a different one.
    throw new LlmError(
      "connection",
      `The connection to the model endpoint at ${loop.errorContext.baseUrl} broke mid-answer, and a partly shown reply cannot be replayed; try again.`,
      undefined,
      { cause: error },
    );
  }
  const context = { ...loop.errorContext, retries };
  const failure = classified.failure;
  // A request too long for the window is as long the next time: the turn compacts instead.
  const tooLong = isContextLengthFailure(classified);
  // A whole header timeout of silence (two minutes) once is a hiccup; a second one says the
  // endpoint is not answering, and each further try would cost as long again (ten minutes in all).
  const silence = failure?.type === "timeout";
  const silentAgain = silence && timeoutRetries >= MAX_TIMEOUT_RETRIES;
  if (
    failure === undefined ||
    retries >= loop.maxRetries ||
    !isRetryable(failure) ||
    tooLong ||
    silentAgain
  ) {
    throw toLlmError(classified, context, error);
  }
  const wait = planRetryWait(retries + 1, classified.headers, {
    maxRetryDelayMs: loop.maxRetryDelayMs,
    now: loop.now(),
  });
  if (wait.kind === "too_long") {
    const waits = { askedMs: wait.askedMs, maxRetryDelayMs: loop.maxRetryDelayMs };
    throw retryAfterTooLongError(failure, waits, context, error);
  }
  return { delayMs: wait.delayMs, reason: describeFailure(failure), silence };
}
