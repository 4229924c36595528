import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from "@modelcontextprotocol/client";
import { errorMessage } from "../errors.js";
import { readableServerMessage } from "../text/readable-server-message.js";
import { isMalformedAnswer } from "./malformed-answer.js";
import { isOversizedMessage } from "./message-limit.js";
import { networkFailure } from "./protocol-era.js";
import { ServerSentError } from "./server-sent-errors.js";
import { STREAM_CLOSED_CODE, STREAM_CLOSED_MESSAGE } from "./unanswered-stream-guard.js";
import { ToolCallError } from "./tool-call-error-class.js";

// The class has its own file, free of the SDK, for code that only tells failures apart.
export { ToolCallError };

/** SEP-2243: the server found a header missing or not matching the body. */
export const HEADER_MISMATCH = -32020;

/** Maps what the SDK threw for a request into a classified failure. */
export function classifyRequestError(
  error: unknown,
  context: { server: string; timeoutMs: number },
): ToolCallError {
  if (error instanceof ToolCallError) return error;
  // A flood is the server's fault, and asking again would only be flooded again.
  const ours = !(error instanceof ProtocolError && error.data instanceof ServerSentError);
  if (ours && isOversizedMessage(errorMessage(error))) {
    return new ToolCallError(
      "protocol",
      `server "${context.server}": ${errorMessage(error)}; mcpterm stopped reading it (a fault of the server, not retried)`,
      { cause: error },
    );
  }
  if (error instanceof Error && error.name === "AbortError") {
    return new ToolCallError("cancelled", "the call was cancelled", { cause: error });
  }
  if (error instanceof SdkHttpError) {
    return new ToolCallError(
      error.status >= 500 || error.status === 429 ? "transient" : "business",
      `server "${context.server}" answered HTTP ${error.status}${error.statusText ? ` ${error.statusText}` : ""}${httpErrorWords(error)}`,
      { cause: error },
    );
  }
  if (error instanceof SdkError) return classifySdkError(error, context);
  if (error instanceof ProtocolError) {
    const code: number = error.code;
    const message = errorMessage(error);
    // Only what mcpterm raised itself is a closed stream: the same code in the server's own
    // answer is the server reporting a failure, shown in its words, never resent.
    if (isMalformedAnswer(error.data)) {
      return new ToolCallError(
        "protocol",
        `server "${context.server}" broke the MCP protocol (a fault of the server, not retried): ${message}`,
        { cause: error },
      );
    }
    if (ours && code === STREAM_CLOSED_CODE && message.includes(STREAM_CLOSED_MESSAGE)) {
      return new ToolCallError(
        "transient",
        `server "${context.server}" closed the response stream before answering`,
        { cause: error },
      );
    }
    if (code === (ProtocolErrorCode.InvalidParams as number)) {
      return new ToolCallError("invalid_args", message, { cause: error });
    }
    if (error instanceof MissingRequiredClientCapabilityError) {
      return new ToolCallError(
        "business",
        `server "${context.server}" needs a client capability mcpterm did not declare (${JSON.stringify(error.requiredCapabilities)}): ${message}`,
        { cause: error },
      );
    }
    if (/forbidden|unauthori[sz]ed|permission denied|access denied/i.test(message)) {
      return new ToolCallError("permission", message, { cause: error });
    }
    return new ToolCallError("business", message, { cause: error });
  }
  const message = errorMessage(error);
  if (/abort/i.test(message))
    return new ToolCallError("cancelled", "the call was cancelled", { cause: error });
  // A remote server's connection that failed mid-request: undici says only "fetch failed".
  const network = networkFailure(error);
  if (network !== undefined)
    return new ToolCallError(
      "transient",
      `the connection to server "${context.server}" failed during the request: ${network}; whether the server acted on it is unknown`,
      { cause: error, unreachable: true },
    );
  return new ToolCallError("transient", message, { cause: error });
}

/** What the SDK itself refused or gave up on, never the server's words. */
function classifySdkError(error: SdkError, context: { server: string; timeoutMs: number }): ToolCallError {
  switch (error.code) {
    case SdkErrorCode.RequestTimeout:
      return new ToolCallError(
        "transient",
        `server "${context.server}" did not answer within ${context.timeoutMs} ms`,
        { cause: error, timedOut: true },
      );
    case SdkErrorCode.ConnectionClosed:
      return new ToolCallError("transient", `the connection to server "${context.server}" was lost`, {
        cause: error,
        lost: true,
      });
    // The server's answer broke the protocol (a result whose content is not an array, one
    // without resultType, a result type mcpterm does not know, a question asked over and over):
    // a fault of that server, and sending it again gets the same answer.
    case SdkErrorCode.InvalidResult:
    case SdkErrorCode.UnsupportedResultType:
    case SdkErrorCode.InputRequiredRoundsExceeded:
      return new ToolCallError(
        "protocol",
        `server "${context.server}" broke the MCP protocol (its answer is not a valid result; this is a fault of the server, not retried): ${errorMessage(error)}`,
        { cause: error },
      );
    // A 200 whose body is neither JSON nor an event stream (a proxy's HTML page, plain text):
    // the server, or what stands in front of it, answered something other than MCP.
    case SdkErrorCode.ClientHttpUnexpectedContent: {
      const type = /Unexpected content type: (.*)$/.exec(errorMessage(error))?.[1]?.trim();
      const what = type === undefined || type === "null" ? "no Content-Type" : type;
      return new ToolCallError(
        "protocol",
        `server "${context.server}" answered with ${what}, not JSON-RPC (application/json or text/event-stream); whether it acted on the request is unknown (a fault of the server or a proxy in front of it, not retried)`,
        { cause: error },
      );
    }
    case SdkErrorCode.CapabilityNotSupported: {
      // The server asked (input_required) for what this client did not declare it offers: the
      // SDK's words are for a client's developer; the fault is the server's, which must ask only
      // for what the client's capabilities offer.
      const method = (error as { data?: { method?: unknown } }).data?.method;
      if (typeof method === "string")
        return new ToolCallError(
          "protocol",
          `server "${context.server}" asked for ${JSON.stringify(method.slice(0, 100))} in an input_required answer, which mcpterm did not offer it (its capabilities did not declare it): a server must ask only for what the client declares (a fault of the server, not retried)`,
          { cause: error },
        );
      return new ToolCallError("business", `server "${context.server}": ${errorMessage(error)}`, {
        cause: error,
      });
    }
    case SdkErrorCode.MethodNotSupportedByProtocolVersion:
      return new ToolCallError("business", `server "${context.server}": ${errorMessage(error)}`, {
        cause: error,
      });
    case SdkErrorCode.NotConnected:
    case SdkErrorCode.AlreadyConnected:
    case SdkErrorCode.NotInitialized:
    case SdkErrorCode.SendFailed:
    case SdkErrorCode.ListPaginationExceeded:
    case SdkErrorCode.EraNegotiationFailed:
    case SdkErrorCode.ClientHttpNotImplemented:
    case SdkErrorCode.ClientHttpAuthentication:
    case SdkErrorCode.ClientHttpForbidden:
    case SdkErrorCode.ClientHttpFailedToOpenStream:
    case SdkErrorCode.ClientHttpFailedToTerminateSession:
      return new ToolCallError("transient", errorMessage(error), { cause: error });
  }
}

/** Whether a request failed because the connection closed under it (the SDK's ConnectionClosed, at any depth). */
export function lostConnection(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    if (cause instanceof SdkError && cause.code === SdkErrorCode.ConnectionClosed) return true;
  }
  return false;
}

/**
 * Runs one request other than a tool call, its failure classified like a tool call's. What
 * `passThrough` claims (an expired 2025 session, which the caller renews) is thrown as it is.
 */
export async function classifiedRequest<T>(
  request: () => Promise<T>,
  context: {
    server: string;
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    passThrough: (error: unknown) => boolean;
  },
  what: string,
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (context.signal?.aborted)
      throw new ToolCallError("cancelled", `${what} was cancelled`, { cause: error });
    if (context.passThrough(error)) throw error;
    throw classifyRequestError(error, { server: context.server, timeoutMs: context.timeoutMs });
  }
}

/**
 * What an HTTP error's body says, as part of the sentence: the SDK's message quotes the whole
 * page (`Error POSTing to endpoint: <!DOCTYPE html>…`), where a server author wants the words of
 * it, a framework's traceback among them.
 */
function httpErrorWords(error: SdkHttpError): string {
  const { text } = error.data as { text?: unknown };
  const said = readableServerMessage(typeof text === "string" ? text : errorMessage(error));
  return said === undefined ? "" : `: ${said}`;
}
