import {
  ConfigError,
  DeniedError,
  errorMessage,
  RuntimeError,
  ServerUnavailableError,
  UntrustedConfigError,
  UsageError,
} from "../core/errors.js";
import type { FailureClass } from "../core/policy/failure-class.js";
import type { ServerConnection } from "../core/mcp/server-connection.js";
import {
  errorAnswerText,
  serverErrorAnswer,
  type ServerErrorAnswer,
} from "../core/mcp/server-error-answer.js";
import { ToolCallError } from "../core/mcp/tool-call-error-class.js";
import { redactedLine } from "../core/policy/redacted-json.js";
import { SecretRedactor } from "../core/policy/redact-secrets.js";
import type { CliIo } from "../common/cli-io.js";

/** What a server's author needs beside the sentence of a failed request. */
export interface FailureDetail {
  /** The JSON-RPC error the server answered with, as it sent it; none for other failures. */
  answer?: ServerErrorAnswer;
  /** Its `data` as one line of JSON, redacted, for the sentence. */
  dataLine?: string;
  /** The last lines the server wrote to stderr while the request was out, redacted. */
  stderr: string[];
}

/** Most stderr lines quoted with a failure: the end of a stack trace, as a sentence can carry. */
const STDERR_LINES = 5;
/** How long a failed request waits for the stderr a server wrote before it answered. */
const STDERR_SETTLE_MS = 30;

/**
 * Where the server's stderr stands as a request goes out, for failureDetail: taken once what the
 * server already wrote (for the request before, say) has been read off the pipe, so none of it
 * is quoted as this request's.
 */
export async function stderrMarkNow(connection: ServerConnection): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  return connection.stderrMark();
}

/**
 * The detail of a request that failed, sent when the server's stderr stood at `stderrMark`
 * (stderrMarkNow). A server whose process ended is left without stderr lines: the
 * sentence of its exit already ends with what it said last.
 */
async function failureDetail(
  error: unknown,
  connection: ServerConnection,
  stderrMark: number,
  redact: (text: string) => string,
): Promise<FailureDetail> {
  // A server writes its stack to stderr before it answers, but the two pipes are read apart:
  // the answer may be read first. What was written before it is in the pipe by now.
  // A timer runs before the loop reads its pipes: on a busy machine it can be due before they are
  // read at all, so the read that follows it (the check phase comes after the poll) is awaited too.
  if (connection.snapshot().pid !== undefined) {
    await new Promise((resolve) => setTimeout(resolve, STDERR_SETTLE_MS));
    await new Promise((resolve) => setImmediate(resolve));
  }
  const stderr =
    connection.exitReport() !== undefined
      ? []
      : connection
          .stderrSince(stderrMark)
          .filter((line) => line.trim() !== "")
          .slice(-STDERR_LINES);
  const answer = serverErrorAnswer(error);
  if (answer === undefined) return { stderr };
  return "data" in answer
    ? { answer, dataLine: redactedLine(answer.data, redact), stderr }
    : { answer, stderr };
}

/**
 * What a failed request of a one-off command (`call`, `read`, `prompts <server> <prompt>`) means
 * for the exit code: arguments the server rejected are a usage error (2); a server that is gone —
 * it exited, and the message says how and why — or a remote one whose connection failed
 * mid-request could not be reached (4); anything else — a
 * timeout (the server was reached, whatever became of it after), an error the server raised, a
 * cancelled request — is a runtime failure (1). Messages arrive already redacted; `detail` (the
 * JSON-RPC code and data, the server's stderr meanwhile) is added to them.
 */
export function requestFailure(error: unknown, connection: ServerConnection, detail?: FailureDetail): Error {
  if (!(error instanceof ToolCallError)) return error instanceof Error ? error : new Error(String(error));
  const message = `${error.message}${detail ? detailText(detail) : ""}`;
  const stillConnected = connection.snapshot().status === "connected";
  switch (error.failure) {
    case "invalid_args":
      return new UsageError(message);
    case "transient":
      return (stillConnected && !error.unreachable) || error.timedOut
        ? new RuntimeError(message)
        : new ServerUnavailableError(message);
    case "cancelled":
      return new RuntimeError("interrupted");
    case "business":
    case "protocol":
    case "permission":
      return new RuntimeError(message);
  }
}

/**
 * A failed request of a one-off command, explained: its detail (failureDetail, for a request sent
 * at `stderrMark`) and the failure to throw (requestFailure), the sentence redacted by the full
 * rule set, as a result is: the server's words, its error's data and its stderr may hold a secret
 * only those rules know (a webhook).
 */
export async function explainedFailure(
  error: unknown,
  connection: ServerConnection,
  stderrMark: number,
  redactor: SecretRedactor,
): Promise<{ failure: Error; detail: FailureDetail }> {
  const detail = await failureDetail(error, connection, stderrMark, redactor.redactText);
  const failure = requestFailure(error, connection, detail);
  failure.message = (await redactor.redact(failure.message)).text;
  return { failure, detail };
}

/** ` (JSON-RPC error -32603, data: {…}); stderr during the request: … | …` */
function detailText({ answer, dataLine, stderr }: FailureDetail): string {
  const code = answer ? errorAnswerText(answer, dataLine) : "";
  // A crash's own sentence already ends with what the server said last.
  return `${code}${stderr.length > 0 ? `; stderr during the request: ${stderr.join(" | ")}` : ""}`;
}

/**
 * What a developer command's `--json` says of a request that failed or never went out, beside
 * what it was (`server`, `tool` or `uri`): the sentence stderr gets, redacted, and its class.
 */
export function failureFields(error: unknown, io: CliIo): { error: string; failure: FailureClass } {
  return {
    error: SecretRedactor.forSession([], io.env).redactText(errorMessage(error)),
    failure: commandFailureClass(error, io.signal),
  };
}

/**
 * The class a developer command's `--json` gives a request that failed or never went out: the
 * request's own (a ToolCallError's), else a refusal is `permission`, a mistake in what was typed
 * or configured `invalid_args`, a server that answered wrongly `protocol`, one that was not there
 * `transient`, Ctrl+C `cancelled`.
 */
export function commandFailureClass(error: unknown, signal: AbortSignal): FailureClass {
  if (signal.aborted) return "cancelled";
  // A sentence made of a failed request keeps the request's own class.
  if (error instanceof Error && error.cause instanceof ToolCallError) return error.cause.failure;
  if (error instanceof DeniedError || error instanceof UntrustedConfigError) return "permission";
  if (error instanceof UsageError || error instanceof ConfigError) return "invalid_args";
  return error instanceof RuntimeError ? "protocol" : "transient";
}
