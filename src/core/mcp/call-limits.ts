import type { QuestionHold } from "./question-hold.js";
import { SilenceTimer } from "./silence-timer.js";
import { ToolCallError } from "./tool-call-error.js";

/** The abort reason of a call its caller cancelled (Esc, Ctrl+C, the turn or the process ending). */
const CANCELLED = "the client cancelled the call";

export interface CallLimitOptions {
  server: string;
  /** Silence allowed: progress (or any sign of life) restarts it. */
  timeoutMs: number;
  /** The hard limit, progress or not. */
  maxCallMs: number;
  /** How the hard limit is named when it stops a call: by default the server's config. */
  maxCallSetting?: string | undefined;
  questions: QuestionHold;
  /** The caller's own cancel (Esc, Ctrl+C). */
  signal?: AbortSignal | undefined;
  /** What the server did that may explain its silence (a 2026 server's request left unanswered), as a clause. */
  silenceExplained?: (() => string | undefined) | undefined;
}

/**
 * The limits of one tool call, as one abort signal: the caller cancelling, the server silent for
 * timeoutMs (progress restarts it; a question the server put to the person holds it), and the
 * hard limit maxCallMs, which never moves. Aborting (rather than the SDK's own timeouts) makes
 * the SDK cancel the request on the wire, so the server stops too.
 */
export class CallLimits {
  private readonly call = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly silence: SilenceTimer;
  private readonly unhold: () => void;
  private readonly onCallerAbort = (): void => this.call.abort(CANCELLED);
  readonly maxCallMs: number;
  /**
   * The abort reasons of the two limits. The SDK sends a reason to the server as its text, in
   * `notifications/cancelled`: what the server author reads in their logs of why the call ended.
   */
  private readonly silent: string;
  private readonly overCallLimit: string;
  /** Progress (or a task's status) came: the hard limit, not silence, is what stops the call. */
  private showedAnyLife = false;

  constructor(private readonly options: CallLimitOptions) {
    this.maxCallMs = Math.max(options.maxCallMs, options.timeoutMs);
    this.silent = `no answer or progress for ${options.timeoutMs} ms (the client's timeoutMs for this server)`;
    this.overCallLimit = `still running after ${this.maxCallMs} ms, the most one call may take (the client's maxCallMs for this server)`;
    // A call that never showed life ran out of silence, whichever limit struck (they may be equal).
    this.timer = setTimeout(
      () => this.call.abort(this.showedAnyLife ? this.overCallLimit : this.silent),
      this.maxCallMs,
    );
    this.silence = new SilenceTimer(options.timeoutMs, () => this.call.abort(this.silent));
    this.unhold = options.questions.subscribe((open) => this.silence.hold(open));
    this.silence.hold(options.questions.isOpen);
    // Linked by hand and unlinked in dispose, so no listener on the caller's signal outlives the call.
    options.signal?.addEventListener("abort", this.onCallerAbort, { once: true });
    if (options.signal?.aborted) this.call.abort(CANCELLED);
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }

  /** The server showed it is working (progress, a task status): the silence limit starts over. */
  showedLife(): void {
    this.showedAnyLife = true;
    this.silence.restart();
  }

  /** Why the call stopped, when one of the limits (or the caller) stopped it. */
  stoppedBy(error: unknown): ToolCallError | undefined {
    const { server, timeoutMs } = this.options;
    if (this.options.signal?.aborted)
      return new ToolCallError("cancelled", "the call was cancelled", { cause: error });
    if (this.call.signal.reason === this.silent) {
      const why = this.options.silenceExplained?.();
      return new ToolCallError(
        "transient",
        `server "${server}" did not answer within ${timeoutMs} ms${why === undefined ? "" : `; ${why}`}`,
        { cause: error, timedOut: true },
      );
    }
    if (this.call.signal.reason === this.overCallLimit)
      return new ToolCallError(
        "transient",
        `stopped after ${this.maxCallMs} ms, the most one call to server "${server}" may take (${this.options.maxCallSetting ?? "maxCallMs in its config"}), though it kept reporting progress`,
        { cause: error, retryable: false, timedOut: true },
      );
    return undefined;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.silence.stop();
    this.unhold();
    this.options.signal?.removeEventListener("abort", this.onCallerAbort);
  }
}
