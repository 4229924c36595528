import { RuntimeError, ServerUnavailableError, UsageError } from "../core/errors.js";
import type { ServerConnection } from "../core/mcp/server-connection.js";
import { ToolCallError } from "../core/mcp/tool-call-error-class.js";

/**
 * What a failed request of a one-off command (`call`, `read`, `prompts <server> <prompt>`) means
 * for the exit code: arguments the server rejected are a usage error (2); a server that is gone —
 * it exited, and the message says how and why — could not be reached (4); anything else — a
 * timeout (the server was reached, whatever became of it after), an error the server raised, a
 * cancelled request — is a runtime failure (1). Messages arrive already redacted.
 */
export function requestFailure(error: unknown, connection: ServerConnection): Error {
  if (!(error instanceof ToolCallError)) return error instanceof Error ? error : new Error(String(error));
  const stillConnected = connection.snapshot().status === "connected";
  switch (error.failure) {
    case "invalid_args":
      return new UsageError(error.message);
    case "transient":
      return stillConnected || error.timedOut
        ? new RuntimeError(error.message)
        : new ServerUnavailableError(error.message);
    case "cancelled":
      return new RuntimeError("interrupted");
    case "business":
    case "protocol":
    case "permission":
      return new RuntimeError(error.message);
  }
}
