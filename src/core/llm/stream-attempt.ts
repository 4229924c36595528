/**
 * One HTTP attempt of a streaming model step: what it has streamed so far, and the loop that
 * reads its chunks under a watchdog so a silent server ends the attempt instead of hanging it.
 */
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from "openai/resources/chat/completions";
import { openChatStream, type ChatEndpoint } from "./chat-completions.js";
import { toFinishReason, toUsage } from "./openai-messages.js";
import { StreamStalled, StreamWatchdog, type StallLimit, type StartTimer } from "./stream-watchdog.js";
import { ToolCallAssembler } from "./tool-call-assembler.js";
import type { ModelStreamEvent, Usage } from "./types.js";

export interface SilenceLimits {
  /** From the response headers to the first token; reasoning models may think for minutes first. */
  firstTokenMs: number;
  /** Between chunks once tokens flow. */
  idleMs: number;
  /** The whole answer, however busy the stream (MAX_ANSWER_MS). */
  answerMs: number;
}

/**
 * The longest one answer may stream. A stream that keeps sending (reasoning that never ends,
 * chunks that carry nothing new) passes every silence limit; this ends it. Long enough for
 * 20,000 tokens from a slow local model on a CPU.
 */
export const MAX_ANSWER_MS = 30 * 60_000;

/** Thrown out of an attempt that streamed longer than `limitMs`; never retried. */
export class AnswerOverLimit extends Error {
  constructor(readonly limitMs: number) {
    super(`the answer streamed for more than ${limitMs} ms`);
    this.name = "AnswerOverLimit";
  }
}

export interface AttemptOptions {
  signal: AbortSignal | undefined;
  limits: SilenceLimits;
  startTimer: StartTimer;
  /** Called when the response headers came (see ModelRequest.onAnswering). */
  onAnswering?: () => void;
}

/**
 * Streams one attempt's visible text into `attempt`. Throws `StreamStalled` when a wait ran out,
 * and what the request threw otherwise; an abort by the caller throws an abort error, and the
 * caller asks its own signal first.
 */
export async function* streamAttempt(
  endpoint: ChatEndpoint,
  params: ChatCompletionCreateParamsStreaming,
  attempt: Attempt,
  options: AttemptOptions,
): AsyncGenerator<ModelStreamEvent, void> {
  const { limits } = options;
  const nextLimit = (): StallLimit =>
    attempt.sawToken
      ? { phase: "idle", limitMs: limits.idleMs }
      : { phase: "first_token", limitMs: limits.firstTokenMs };
  const watchdog = new StreamWatchdog(options.startTimer, options.signal);
  try {
    // Until the headers arrive the request's own timeout is the limit.
    const stream = await openChatStream(endpoint, params, watchdog.signal);
    watchdog.expect(nextLimit());
    options.onAnswering?.();
    const startedAt = performance.now();
    for await (const chunk of stream) {
      if (performance.now() - startedAt > limits.answerMs) throw new AnswerOverLimit(limits.answerMs);
      const { text, counts } = attempt.take(chunk);
      // A chunk that carries nothing does not restart the wait: empty keep-alive chunks would
      // otherwise hold a stream that never answers open for ever.
      if (!counts) continue;
      // Paused while the consumer handles the text: a slow reader is not a silent server.
      watchdog.pause();
      if (text !== "") yield { type: "text", delta: text };
      watchdog.expect(nextLimit());
    }
  } catch (error) {
    // The watchdog ends a silent stream by aborting it: the abort is the stall.
    throw watchdog.stalled ? new StreamStalled(watchdog.stalled, { cause: error }) : error;
  } finally {
    watchdog.dispose();
  }
  if (watchdog.stalled) throw new StreamStalled(watchdog.stalled);
}

/** Thinking that DeepSeek, Qwen and vLLM-served reasoning models stream beside the answer. */
interface ReasoningDelta {
  reasoning_content?: string | null;
  reasoning?: string | null;
}

/** What one HTTP attempt has streamed so far. */
export class Attempt {
  private readonly startedAt = performance.now();
  private firstTokenMs: number | undefined;
  private text = "";
  private finishReason: string | null | undefined;
  private usage: Usage | undefined;
  private readonly toolCalls = new ToolCallAssembler();
  private lastUsage: string | undefined;
  private sawFinish = false;

  get shownText(): boolean {
    return this.text !== "";
  }

  /** A text or tool-call piece has arrived; a chunk with only a role or usage does not count. */
  get sawToken(): boolean {
    return this.firstTokenMs !== undefined;
  }

  /**
   * Folds one chunk in. Returns its visible text, and whether it carried anything at all (text,
   * a tool-call piece, reasoning, a finish reason or usage): only such a chunk shows the server
   * is still answering.
   */
  take(chunk: ChatCompletionChunk): { text: string; counts: boolean } {
    const usage = toUsage(chunk.usage);
    this.usage = usage ?? this.usage;
    // Typed as always present, but the usage chunk of some servers has no `choices` at all.
    const choices = chunk.choices as typeof chunk.choices | undefined;
    const choice = choices?.[0];
    if (!choice) return { text: "", counts: this.newUsage(usage) };
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const delta = choice.delta as (typeof choice.delta & ReasoningDelta) | undefined;
    const content = delta?.content ?? "";
    const calls = delta?.tool_calls ?? [];
    for (const call of calls) {
      this.toolCalls.push(call);
      this.markFirstToken();
    }
    if (content !== "") {
      this.markFirstToken();
      this.text += content;
    }
    const reasoning = `${delta?.reasoning_content ?? ""}${delta?.reasoning ?? ""}`;
    // Only what is new counts: a usage or finish reason sent again, or a tool-call piece with
    // nothing in it, says nothing more than the chunk before.
    const newFinish = Boolean(choice.finish_reason) && !this.sawFinish;
    if (choice.finish_reason) this.sawFinish = true;
    const callPieces = calls.some(
      (call) => Boolean(call.id) || Boolean(call.function?.name) || Boolean(call.function?.arguments),
    );
    const counts = content !== "" || callPieces || reasoning !== "" || newFinish || this.newUsage(usage);
    return { text: content, counts };
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

  /** Whether `usage` is there and differs from the last usage seen. */
  private newUsage(usage: Usage | undefined): boolean {
    if (usage === undefined) return false;
    const seen = JSON.stringify(usage);
    const fresh = seen !== this.lastUsage;
    this.lastUsage = seen;
    return fresh;
  }

  private markFirstToken(): void {
    this.firstTokenMs ??= Math.round(performance.now() - this.startedAt);
  }
}
