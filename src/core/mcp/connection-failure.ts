import { SdkHttpError, SseError, UnauthorizedError } from "@modelcontextprotocol/client";
import { errorMessage } from "../errors.js";
import { capSentence } from "../text/cap-sentence.js";
import { readableServerMessage } from "../text/readable-server-message.js";
import type { ProtocolSetting } from "../config/config-types.js";
import type { ServerAuth } from "../oauth/server-auth.js";
import { CHECK_ENDPOINT_PATH, malformedHttpAnswer, negotiationFailure } from "./protocol-era.js";
import { redactedLine } from "../policy/redacted-json.js";
import { errorAnswerText, serverErrorAnswer } from "./server-error-answer.js";
import { essentialsText, howItEnded, serverExitReport } from "./server-exit.js";
import { BROKEN_PIPE_EXIT_WAIT_MS, type StdioProcessTransport } from "./stdio-process-transport.js";

const STDERR_TAIL_IN_ERRORS = 5;

/** Why a connection attempt failed, in one sentence with the cause: spawn error, exit and stderr, sign-in, HTTP. */
export async function describeConnectFailure(
  error: unknown,
  context: {
    server: string;
    /** The handshake was done: the attempt failed after it, as the lists were read. */
    handshaken: boolean;
    /** What a server's error data is redacted with before it is quoted. */
    redact: (text: string) => string;
    auth: ServerAuth | undefined;
    stdio: StdioProcessTransport | undefined;
    protocol: ProtocolSetting;
    /** The server was typed on the command line (see ServerConfig.typed). */
    typed: boolean;
    /** A remote server's URL (without its user name and password), to tell a redirect to itself. */
    url: string | undefined;
    /** Its requests carried an Authorization header: one given as such, or its URL's user and password. */
    sentAuthorization: "header" | "url" | undefined;
  },
): Promise<string> {
  const { stdio, auth, server } = context;
  if (stdio?.spawnError) return stdio.spawnError.message;
  // mcpterm stopped it for flooding: its exit, and the closed connection, follow from that.
  if (stdio?.cutOff !== undefined) return stdio.cutOff;
  // A process that died as the first message was written fails that write (EPIPE) a moment
  // before its exit is seen: "write EPIPE" says nothing, the exit and its stderr say why.
  // (The transport waited already when it found the process alive with its stdin shut.)
  if (stdio && isBrokenPipe(error) && stdio.stdinShut === undefined)
    await stdio.ended(BROKEN_PIPE_EXIT_WAIT_MS);
  const signIn =
    auth?.describe(error) ??
    unauthorizedSentence(error, server, auth !== undefined, context.typed, context.sentAuthorization);
  if (signIn) return signIn;
  // A process that ended of itself (not as mcpterm stopped it once the attempt failed) and died, or
  // broke the pipe the handshake was written to, is why it failed; one that ended cleanly after
  // the handshake failed (a 2025 server refusing a pinned 2026) is told by the revision.
  const ownExit = stdio?.exit?.stopped === true ? undefined : stdio?.exit;
  const exit =
    ownExit &&
    describeExit(
      stdio,
      context.handshaken ? " after the handshake, while its lists were read" : " before it was connected",
    );
  const died = ownExit !== undefined && (ownExit.code !== 0 || ownExit.signal !== null);
  if (exit && (died || isBrokenPipe(error))) return exit;
  // Alive with its stdout closed: nothing it does can answer.
  if (stdio?.stdoutShut)
    return `the server process closed its stdout and runs on, so no answer can come (a wrapper that closed it, or a program writing somewhere else)${stderrSuffix(stdio)}`;
  // Alive, or stopped by mcpterm, with its stdin shut (`docker run` without -i, say).
  if (stdio && isBrokenPipe(error))
    return `the server process closed its stdin, so nothing could be sent to it (a container started without -i, or a command reading from something else)${stderrSuffix(stdio)}`;
  const revision = negotiationFailure(error, context.protocol);
  if (revision) return `${revision}${stderrSuffix(stdio)}`;
  if (exit) return exit;
  const refusedPost = refusedPostSentence(error);
  if (refusedPost) return refusedPost;
  const loop = redirectLoop(error, context.url);
  if (loop) return loop;
  // undici says only "fetch failed"; its causes say whether the server was reached at all.
  const malformed = malformedHttpAnswer(error);
  if (malformed)
    return malformed.notHttp ? malformed.sentence : `the server answered, but ${malformed.sentence}`;
  return `${capSentence(errorMessage(error))}${answerSuffix(error, context.redact)}${stderrSuffix(stdio)}`;
}

/**
 * The code and data of the server's own error answer (a handshake refused with `-32001` and
 * what to do in its data), as a failed call quotes them; nothing for any other failure.
 */
function answerSuffix(error: unknown, redact: (text: string) => string): string {
  const answer = serverErrorAnswer(error);
  if (answer === undefined) return "";
  return errorAnswerText(answer, "data" in answer ? redactedLine(answer.data, redact) : undefined);
}

/**
 * How a stdio server's process ended and the stderr lines that say why (the error line, where
 * it was thrown, its cause: see server-exit.ts), or undefined while it runs.
 */
export function describeExit(stdio: StdioProcessTransport | undefined, when = ""): string | undefined {
  const exit = stdio?.exit;
  if (!exit) return undefined;
  if (stdio.cutOff !== undefined) return `${stdio.cutOff}${when}`;
  const said = essentialsText(serverExitReport(exit, stdio.stderr.snapshot()));
  return `the server process ${howItEnded(exit)}${when}${said === undefined ? "" : `: ${said}`}`;
}

function stderrSuffix(stdio: StdioProcessTransport | undefined): string {
  const tail = stdio?.stderr.tail(STDERR_TAIL_IN_ERRORS).filter((line) => line.trim() !== "") ?? [];
  return tail.length > 0 ? `; stderr: ${tail.join(" | ")}` : "";
}

/** A write to a pipe whose reader is gone, as Node reports it (also when the SDK wrapped it). */
function isBrokenPipe(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause)
    if ((cause as NodeJS.ErrnoException).code === "EPIPE" || /\bEPIPE\b/.test(cause.message)) return true;
  return false;
}

/**
 * The SDK follows a few redirects within the server's origin and then says `Redirect to <url>
 * not followed; use that URL as the endpoint`: when that URL is the one already in use, the
 * server redirects to itself, which no change of URL fixes.
 */
function redirectLoop(error: unknown, url: string | undefined): string | undefined {
  const target = /Redirect to (\S+) not followed/.exec(errorMessage(error))?.[1];
  if (target === undefined || url === undefined || !sameEndpoint(target, url)) return undefined;
  return "the server answers with a redirect to its own URL, over and over (a redirect loop); its owner must fix it, the URL is not the cause";
}

function sameEndpoint(a: string, b: string): boolean {
  try {
    const [left, right] = [new URL(a), new URL(b)];
    for (const url of [left, right]) url.username = url.password = url.search = url.hash = "";
    return left.href === right.href;
  } catch {
    return false;
  }
}

/** A 401 or 403 from the server: another transport would be refused the same way. */
export function isAuthError(error: unknown): boolean {
  const status = httpStatus(error);
  return error instanceof UnauthorizedError || status === 401 || status === 403;
}

export function isTimeout(error: unknown): boolean {
  return /within \d+ ms|timed out|timeout/i.test(errorMessage(error));
}

/** The HTTP status a transport failed with, where it says. */
function httpStatus(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) return error.status;
  if (error instanceof SseError) return error.code;
  return undefined;
}

/**
 * A Streamable HTTP endpoint that answered a POST with an error status (the SDK says `Error
 * POSTing to endpoint: <the whole page>`): the status, the page by its words, and what the
 * usual cause is, a URL whose path is not the MCP endpoint.
 */
function refusedPostSentence(error: unknown): string | undefined {
  if (!(error instanceof SdkHttpError) || !error.message.startsWith("Error POSTing to endpoint"))
    return undefined;
  const { status, statusText } = error;
  if (status < 400) return undefined;
  const { text } = error.data as { text?: unknown };
  const said = typeof text === "string" ? readableServerMessage(text) : undefined;
  const reason = statusText === undefined || statusText === "" ? "" : ` ${statusText}`;
  const hint = status === 404 || status === 405 ? `; ${CHECK_ENDPOINT_PATH}` : "";
  return `the server answered HTTP ${status}${reason} to the first message${said ? `: ${said}` : ""}${hint}`;
}

/**
 * A 401 from a server mcpterm does not sign in to (`"oauth": false`, or its own Authorization
 * header): what it means and what to configure, instead of the server's raw answer.
 */
function unauthorizedSentence(
  error: unknown,
  server: string,
  signsIn: boolean,
  typed: boolean,
  sentAuthorization: "header" | "url" | undefined,
): string | undefined {
  if (signsIn || !isAuthError(error)) return undefined;
  const code = httpStatus(error) ?? 401;
  // A token was sent and refused: that it needs one is not news, that this one failed is.
  if (sentAuthorization === "url")
    return `server "${server}" refused the user name and password in its URL, sent as Basic authorization (HTTP ${code}); check them (they may be wrong, or the server may take a token instead).`;
  if (sentAuthorization === "header")
    return `server "${server}" refused the Authorization header it was sent (HTTP ${code}); check the token${typed ? " given with --header" : ` in mcpServers.${server}.headers`} (it may be wrong, expired, or lack a scope the server needs).`;
  const fix = typed
    ? `pass its token with --header "Authorization: Bearer …", or name it in mcp.config.json to sign in`
    : `check the token in mcpServers.${server}.headers, or remove "oauth": false so mcpterm can sign in`;
  return `server "${server}" refused the connection (HTTP ${code}): it needs authorization; ${fix}.`;
}

export function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
