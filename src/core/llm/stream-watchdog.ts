/**
 * Ends one streaming HTTP attempt when the server goes silent. The request's own timeout stops
 * at the response headers, so without this a stream that stalls mid-answer would hang for ever.
 */

/** A healthy server streams tokens every few seconds, even a slow one on a CPU. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/**
 * Longer, because a model that reasons without streaming its thoughts (OpenAI's o-series), or a
 * local server still reading a long prompt, can be silent for minutes before its first token.
 */
export const DEFAULT_FIRST_TOKEN_TIMEOUT_MS = 240_000;
/** The longest silence a setting may allow: after five minutes a stream is gone, not thinking. */
export const MAX_SILENCE_TIMEOUT_MS = 300_000;

/** Which silence ran out: before the answer's first token, or between chunks after it. */
export type StallPhase = "first_token" | "idle";

export interface StallLimit {
  phase: StallPhase;
  limitMs: number;
}

/** Starts a timer and returns the function that cancels it; injected so tests can count live timers. */
export type StartTimer = (callback: () => void, ms: number) => () => void;

export const startRealTimer: StartTimer = (callback, ms) => {
  const handle = setTimeout(callback, ms);
  return () => {
    clearTimeout(handle);
  };
};

/** Thrown out of an attempt whose stream went silent; the stream loop turns it into an `LlmError`. */
export class StreamStalled extends Error {
  constructor(
    readonly stall: StallLimit,
    options?: { cause?: unknown },
  ) {
    super(`no data for ${stall.limitMs} ms (${stall.phase})`, options);
    this.name = "StreamStalled";
  }
}

/**
 * One per attempt. Its `signal` fires when the caller's signal does or when a wait runs out, so
 * the request is cancelled either way; `stalled` says which. `dispose` must run on every path:
 * it clears the timer and the listener on the caller's signal, which outlives the attempt.
 */
export class StreamWatchdog {
  private readonly controller = new AbortController();
  private cancelTimer: (() => void) | undefined;
  private unlinkCaller: (() => void) | undefined;
  private stall: StallLimit | undefined;

  constructor(
    private readonly startTimer: StartTimer,
    caller: AbortSignal | undefined,
  ) {
    if (caller === undefined) return;
    const onAbort = () => {
      this.pause();
      this.controller.abort(caller.reason);
    };
    if (caller.aborted) {
      onAbort();
      return;
    }
    caller.addEventListener("abort", onAbort, { once: true });
    this.unlinkCaller = () => {
      caller.removeEventListener("abort", onAbort);
    };
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Set once a wait ran out and the request was cancelled for it. */
  get stalled(): StallLimit | undefined {
    return this.stall;
  }

  /** Starts the wait for the next chunk, replacing any running one. */
  expect(limit: StallLimit): void {
    this.pause();
    if (this.controller.signal.aborted) return;
    this.cancelTimer = this.startTimer(() => {
      this.cancelTimer = undefined;
      this.stall = limit;
      this.controller.abort(new StreamStalled(limit));
    }, limit.limitMs);
  }

  /** Stops the clock while the consumer, not the server, is the one taking time. */
  pause(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  dispose(): void {
    this.pause();
    this.unlinkCaller?.();
    this.unlinkCaller = undefined;
  }
}
