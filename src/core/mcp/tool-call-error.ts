import { ErrorCode, McpError as SdkMcpError } from "@modelcontextprotocol/sdk/types.js";
import type { FailureClass } from "../policy/failure-class.js";
import { errorMessage } from "../errors.js";
import { ServerSentError } from "./server-sent-errors.js";
import { STREAM_CLOSED_MESSAGE } from "./unanswered-stream-guard.js";

/** A tool call that did not produce a result, with the class that decides what happens next. */
export class ToolCallError extends Error {
  /** Whether sending the same call again may help (never after it used up its whole time). */
  readonly retryable: boolean;
  /** The server was reached but did not answer in time: not the same as a server that is gone. */
  readonly timedOut: boolean;

  constructor(
    readonly failure: FailureClass,
    message: string,
    options?: { cause?: unknown; retryable?: boolean; timedOut?: boolean },
  ) {
    super(message, options);
    this.name = "ToolCallError";
    this.retryable = options?.retryable ?? failure === "transient";
    this.timedOut = options?.timedOut ?? false;
  }
}

/** Maps what the SDK threw for a request into a classified failure. */
export function classifyRequestError(
  error: unknown,
  context: { server: string; timeoutMs: number },
): ToolCallError {
  if (error instanceof ToolCallError) return error;
  if (error instanceof Error && error.name === "AbortError") {
    return new ToolCallError("cancelled", "the call was cancelled", { cause: error });
  }
  if (error instanceof SdkMcpError) {
    const code: number = error.code;
    const message = errorMessage(error);
    // Only what mcpterm raised itself is a timeout or a lost connection: the same codes in the
    // server's own answer are the server reporting a failure, shown in its words, never resent.
    const ours = !(error.data instanceof ServerSentError);
    if (ours && code === (ErrorCode.RequestTimeout as number)) {
      return new ToolCallError(
        "transient",
        `server "${context.server}" did not answer within ${context.timeoutMs} ms`,
        { cause: error, timedOut: true },
      );
    }
    if (ours && code === (ErrorCode.ConnectionClosed as number)) {
      const how = message.includes(STREAM_CLOSED_MESSAGE)
        ? `server "${context.server}" closed the response stream before answering`
        : `the connection to server "${context.server}" was lost`;
      return new ToolCallError("transient", how, { cause: error });
    }
    if (code === (ErrorCode.InvalidParams as number)) {
      return new ToolCallError("invalid_args", message, { cause: error });
    }
    if (/forbidden|unauthori[sz]ed|permission denied|access denied/i.test(message)) {
      return new ToolCallError("permission", message, { cause: error });
    }
    return new ToolCallError("business", message, { cause: error });
  }
  const message = errorMessage(error);
  if (/abort/i.test(message))
    return new ToolCallError("cancelled", "the call was cancelled", { cause: error });
  return new ToolCallError("transient", message, { cause: error });
}

/** Whether a request failed because the connection closed under it (the SDK's ConnectionClosed, at any depth). */
export function lostConnection(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    if (cause instanceof SdkMcpError && cause.code === (ErrorCode.ConnectionClosed as number)) return true;
  }
  return false;
}
