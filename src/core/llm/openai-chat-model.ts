/**
 * The ChatModel over the `openai` package. The package's own retries are off: this loop retries,
 * so each retry is a visible `retry` event and no wait exceeds our cap.
 */
import { setTimeout as delay } from "node:timers/promises";
import OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { LlmError } from "../errors.js";
import {
  classifyError,
  describeFailure,
  isAbortError,
  retryAfterTooLongError,
  toLlmError,
} from "./model-errors.js";
import { toFinishReason, toOpenAiMessages, toOpenAiTools, toUsage } from "./openai-messages.js";
import { DEFAULT_MAX_RETRY_DELAY_MS, isRetryable, planRetryWait } from "./retry-policy.js";
import { ToolCallAssembler } from "./tool-call-assembler.js";
import type { ChatModel, ModelRequest, ModelSettings, ModelStreamEvent, Usage } from "./types.js";

export const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Local servers ignore the key, but the package refuses to start without one. */
const PLACEHOLDER_API_KEY = "not-needed";
const DEFAULT_MAX_RETRIES = 4;
/** Time to response headers; generous because a local server may load the model first. */
const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

export interface OpenAiChatModelOptions {
  maxRetries?: number;
  maxRetryDelayMs?: number;
  requestTimeoutMs?: number;
  /** Waits between retries; must reject promptly when `signal` aborts. Injected by tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds since the epoch, for `Retry-After` dates. Injected by tests. */
  now?: () => number;
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
  // Every option the package would otherwise read from the environment is passed explicitly.
  const client = new OpenAI({
    apiKey: settings.apiKey ?? PLACEHOLDER_API_KEY,
    baseURL: baseUrl,
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: timeoutMs,
    // The package logs unparsable chunks to the console, which would scribble over the TUI.
    logLevel: "off",
  });
  const loop: StepLoop = {
    client,
    model: settings.model,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
    sleep: options.sleep ?? abortableSleep,
    now: options.now ?? Date.now,
    errorContext: { baseUrl, model: settings.model, timeoutMs, apiKey: settings.apiKey },
  };
  return { model: settings.model, stream: (request) => streamStep(loop, request) };
}

interface StepLoop {
  client: OpenAI;
  model: string;
  maxRetries: number;
  maxRetryDelayMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  errorContext: { baseUrl: string; model: string; timeoutMs: number; apiKey: string | undefined };
}

const aborted = (cause?: unknown) =>
  new LlmError("aborted", "The model request was cancelled.", undefined, { cause });

async function* streamStep(loop: StepLoop, request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
  const { signal } = request;
  const params: ChatCompletionCreateParamsStreaming = {
    model: loop.model,
    messages: toOpenAiMessages(request.messages),
    stream: true,
    stream_options: { include_usage: true },
    ...(request.tools.length > 0 ? { tools: toOpenAiTools(request.tools) } : {}),
  };

  for (let retries = 0; ; retries++) {
    if (signal?.aborted) throw aborted(signal.reason);
    const attempt = new Attempt();
    try {
      const stream = await loop.client.chat.completions.create(params, { signal });
      for await (const chunk of stream) {
        const text = attempt.take(chunk);
        if (text !== "") yield { type: "text", delta: text };
      }
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) throw aborted(error);
      const classified = classifyError(error);
      if (!classified) throw error;
      if (attempt.shownText) {
        // The person already saw part of this answer; replaying the request could show a different one.
        throw new LlmError(
          "connection",
          `The connection to the model endpoint at ${loop.errorContext.baseUrl} broke mid-answer, and a partly shown reply cannot be replayed; try again.`,
          undefined,
          { cause: error },
        );
      }
      const failure = classified.failure;
      if (failure === undefined || retries >= loop.maxRetries || !isRetryable(failure)) {
        throw toLlmError(classified, { ...loop.errorContext, retries }, error);
      }
      const wait = planRetryWait(retries + 1, classified.headers, {
        maxRetryDelayMs: loop.maxRetryDelayMs,
        now: loop.now(),
      });
      if (wait.kind === "too_long") {
        const waits = { askedMs: wait.askedMs, maxRetryDelayMs: loop.maxRetryDelayMs };
        throw retryAfterTooLongError(failure, waits, { ...loop.errorContext, retries }, error);
      }
      const delayMs = wait.delayMs;
      yield { type: "retry", attempt: retries + 1, delayMs, reason: describeFailure(failure) };
      try {
        await loop.sleep(delayMs, signal);
      } catch (sleepError) {
        if (signal?.aborted) throw aborted(sleepError);
        throw sleepError;
      }
      continue;
    }
    // The package ends an aborted stream quietly instead of throwing, so ask the signal.
    if (signal?.aborted) throw aborted(signal.reason);
    yield attempt.done();
    return;
  }
}

/** What one HTTP attempt has streamed so far. */
class Attempt {
  private readonly startedAt = performance.now();
  private firstTokenMs: number | undefined;
  private text = "";
  private finishReason: string | null | undefined;
  private usage: Usage | undefined;
  private readonly toolCalls = new ToolCallAssembler();

  get shownText(): boolean {
    return this.text !== "";
  }

  /** Folds one chunk in and returns its visible text. */
  take(chunk: OpenAI.Chat.Completions.ChatCompletionChunk): string {
    this.usage = toUsage(chunk.usage) ?? this.usage;
    // Typed as always present, but the usage chunk of some servers has no `choices` at all.
    const choices = chunk.choices as typeof chunk.choices | undefined;
    const choice = choices?.[0];
    if (!choice) return "";
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const delta = choice.delta as typeof choice.delta | undefined;
    const content = delta?.content ?? "";
    for (const call of delta?.tool_calls ?? []) {
      this.toolCalls.push(call);
      this.markFirstToken();
    }
    if (content !== "") {
      this.markFirstToken();
      this.text += content;
    }
    return content;
  }

  done(): Extract<ModelStreamEvent, { type: "done" }> {
    return {
      type: "done",
      text: this.text,
      toolCalls: this.toolCalls.result(),
      finishReason: toFinishReason(this.finishReason),
      usage: this.usage,
      firstTokenMs: this.firstTokenMs,
    };
  }

  private markFirstToken(): void {
    this.firstTokenMs ??= Math.round(performance.now() - this.startedAt);
  }
}
