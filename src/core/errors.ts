import { compactSchemaIssues } from "./schema-issues.js";

/** Exit codes are part of the command-line contract (README, docs/architecture.md). */
export const ExitCode = {
  ok: 0,
  runtime: 1,
  usage: 2,
  denied: 3,
  serverUnavailable: 4,
  /** 128 + the signal's number, as shells report a process a signal stopped. */
  hangup: 129,
  interrupted: 130,
  /** The reader of the output went away (`mcpterm call … | head`), as SIGPIPE stops a shell's command. */
  outputClosed: 141,
  terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The signals mcpterm stops cleanly on, and the exit code each ends with. */
export const STOP_SIGNALS = {
  SIGINT: ExitCode.interrupted,
  SIGTERM: ExitCode.terminated,
  SIGHUP: ExitCode.hangup,
} as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/**
 * Why a run stops without finishing, and the exit code each ends with: a signal, or its output
 * closed (SIGPIPE's name, though mcpterm never listens for it: Node ignores SIGPIPE, so a write
 * to a closed pipe, a server's stdin included, comes back as an error on that stream).
 */
const STOP_REASONS = { ...STOP_SIGNALS, SIGPIPE: ExitCode.outputClosed } as const;
export type StopReason = keyof typeof STOP_REASONS;
/** The stop reason of a run whose output's reader went away: there is no one left to tell. */
export const OUTPUT_CLOSED: StopReason = "SIGPIPE";

/** The exit code for a run stopped by `signal` (an AbortSignal whose reason is a StopReason). */
export function exitCodeForStop(signal: AbortSignal): ExitCode {
  const reason: unknown = signal.reason;
  return typeof reason === "string" && reason in STOP_REASONS
    ? STOP_REASONS[reason as StopReason]
    : ExitCode.interrupted;
}

/**
 * Base of every error mcpterm raises on purpose. Only src/run-command.ts turns these into a message
 * and an exit code; everything else throws or returns them.
 */
export abstract class McptermError extends Error {
  abstract readonly code: string;
  abstract readonly exitCode: ExitCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad command-line usage: a missing argument, a conflicting flag. */
export class UsageError extends McptermError {
  readonly code = "usage";
  readonly exitCode = ExitCode.usage;
}

/** mcp.config.json or settings are invalid or incomplete; the message names file, key and expectation. */
export class ConfigError extends McptermError {
  readonly code = "config";
  readonly exitCode = ExitCode.usage;
}

/**
 * A project config the person has not vouched for (no `--trust-config`, no yes, or a no): none
 * of its servers started. Still a config error to the exit code (2); a `--json` report calls it
 * `permission`, since fixing the arguments would not help.
 */
export class UntrustedConfigError extends ConfigError {}

export type LlmErrorKind =
  | "auth"
  | "rate_limit"
  | "server"
  | "connection"
  /** The stream went silent for longer than its limit. */
  | "stalled"
  | "bad_request"
  /** The request was longer than the model's context window (the server said so, or mcpterm knew). */
  | "context_length"
  | "not_found"
  | "aborted"
  | "protocol";

/** The model endpoint failed in a way the loop cannot recover from. */
export class LlmError extends McptermError {
  readonly code = "llm";
  readonly exitCode = ExitCode.runtime;

  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** An MCP server could not be started, reached or used. */
export class ServerUnavailableError extends McptermError {
  readonly code = "server_unavailable";
  readonly exitCode = ExitCode.serverUnavailable;
}

/** A one-shot run in which policy denied a tool call the model asked for. */
export class DeniedError extends McptermError {
  readonly code = "denied";
  readonly exitCode = ExitCode.denied;
}

/** A failure at run time that is not the user's input: max steps reached, a tool error in `call`. */
export class RuntimeError extends McptermError {
  readonly code = "runtime";
  readonly exitCode = ExitCode.runtime;
}

export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return compactSchemaIssues(message.replace(REPEATED_MCP_PREFIX, "$1"));
}

/**
 * The SDK's McpError puts "MCP error <code>: " before its message, and a client rebuilds a
 * server's McpError from its message, which already says so: one prefix is enough.
 */
const REPEATED_MCP_PREFIX = /(MCP error (-?\d+): )(?:MCP error \2: )+/g;
