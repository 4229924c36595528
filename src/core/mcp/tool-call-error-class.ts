import type { FailureClass } from "../policy/failure-class.js";

/** A tool call that did not produce a result, with the class that decides what happens next. */
export class ToolCallError extends Error {
  /** Whether sending the same call again may help (never after it used up its whole time). */
  readonly retryable: boolean;
  /** The server was reached but did not answer in time: not the same as a server that is gone. */
  readonly timedOut: boolean;
  /**
   * The connection to the server closed while the request was out (its process exited, it
   * restarted): whether it ran is unknown, so sending it again is up to resendIsSafe.
   */
  readonly lost: boolean;
  /**
   * The request could not reach the server, or its answer could not reach mcpterm: the network
   * connection failed (reset, refused). Said as a server that could not be reached, not as an error.
   */
  readonly unreachable: boolean;
  /** How the server's process ended when it took the call down with it, in a sentence (a crash). */
  readonly serverExited: string | undefined;

  constructor(
    readonly failure: FailureClass,
    message: string,
    options?: {
      cause?: unknown;
      retryable?: boolean;
      timedOut?: boolean;
      lost?: boolean;
      unreachable?: boolean;
      serverExited?: string | undefined;
    },
  ) {
    super(message, options);
    this.name = "ToolCallError";
    this.retryable = options?.retryable ?? failure === "transient";
    this.timedOut = options?.timedOut ?? false;
    this.lost = options?.lost ?? false;
    this.unreachable = options?.unreachable ?? false;
    this.serverExited = options?.serverExited;
  }
}
