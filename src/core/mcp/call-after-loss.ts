import { unknownResultMessage } from "../policy/resend-rule.js";
import { ToolCallError } from "./tool-call-error.js";

/** What a connection lends a call that met the loss of its server. */
export interface LossContext {
  server: string;
  transport: "stdio" | "http" | "sse";
  /** Whether the call may be sent again (resendIsSafe, via CallOptions.resendSafe). */
  resendSafe: boolean;
  /** Whether this loss is repaired at all; when not (a crash a one-off command reports), the loss is the answer. */
  recovers(): boolean;
  signal: AbortSignal | undefined;
  /** Resolves true once the server is back (ServerRecovery.whenBack). */
  whenBack(signal: AbortSignal | undefined): Promise<boolean>;
  /** How the server was lost (its exit and stderr), and why it did not come back, if it did not. */
  lostReason(): string | undefined;
  /** How the lost process ended, in a sentence (`server "x" exited (code 1): …`), for a crash. */
  lostExit(): string | undefined;
  failedReason(): string | undefined;
  note(text: string): void;
}

/**
 * Sends a call; when its server is lost during it (the process exited, the connection closed),
 * whether it ran is unknown. The call waits for the server to come back either way (bounded by
 * the recovery's attempts), so the next step is offered the tools as listed again; then a call
 * the resend rule finds safe is sent once more, and any other fails with "the result is
 * unknown", never sent again.
 */
export async function callSurvivingLoss<T>(send: () => Promise<T>, context: LossContext): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof ToolCallError) || !error.lost || context.signal?.aborted || !context.recovers())
      throw error;
    const how =
      context.transport === "stdio" ? "exited during the call" : "closed the connection during the call";
    const back = await context.whenBack(context.signal);
    if (!context.resendSafe)
      throw new ToolCallError(
        "transient",
        `${unknownResultMessage(context.server, how)}; ${back ? "the server is back" : "it did not come back"} (${context.lostReason() ?? "connection lost"})`,
        { cause: error, retryable: false, serverExited: context.lostExit() },
      );
    if (!back) {
      const failed = context.failedReason();
      throw new ToolCallError(
        "transient",
        `${unknownResultMessage(context.server, how, "it did not come back")}${failed ? ` (${failed})` : ""}`,
        { cause: error, retryable: false, serverExited: context.lostExit() },
      );
    }
    context.note("sent again after the server came back (safe: a read-only tool of a trusted server)");
    return await send().catch((again: unknown) => {
      throw notAgain(again);
    });
  }
}

/** A failure of the one re-send: it is not sent a third time. */
function notAgain(error: unknown): unknown {
  if (!(error instanceof ToolCallError) || !error.retryable) return error;
  return new ToolCallError(error.failure, error.message, {
    cause: error,
    retryable: false,
    timedOut: error.timedOut,
    unreachable: error.unreachable,
  });
}
