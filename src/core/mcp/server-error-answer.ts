import { ProtocolError } from "@modelcontextprotocol/client";
import { raisedByMcpterm, ServerSentError } from "./server-sent-errors.js";

/** A JSON-RPC error the server answered a request with, as it sent it. */
export interface ServerErrorAnswer {
  code: number;
  /** Its `data`, when it sent one. */
  data?: unknown;
}

/**
 * The JSON-RPC error behind a failed request, when the failure is the server's own answer: its
 * code and data, which a server's author needs to tell "Internal error" from "Internal error".
 * Undefined for anything else: a timeout, a lost connection, an answer that broke the protocol,
 * or an error mcpterm made up for the server (a stream closed unanswered).
 */
export function serverErrorAnswer(error: unknown): ServerErrorAnswer | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (!(cause instanceof ProtocolError)) continue;
    const data: unknown = cause.data;
    if (raisedByMcpterm(data)) return undefined;
    const sent = data instanceof ServerSentError ? data.data : data;
    return sent === undefined ? { code: cause.code } : { code: cause.code, data: sent };
  }
  return undefined;
}

/** Most characters of an error's `data` quoted in a sentence; `--json` has it whole. */
const DATA_CHARS = 500;

/**
 * ` (JSON-RPC error -32603, data: {…})`, what a sentence about a failed request adds of the
 * server's error answer: its code, and its data as one line of JSON (`dataLine`, redacted) cut
 * at DATA_CHARS.
 */
export function errorAnswerText(answer: ServerErrorAnswer, dataLine: string | undefined): string {
  const data =
    dataLine === undefined
      ? ""
      : `, data: ${dataLine.length > DATA_CHARS ? `${dataLine.slice(0, DATA_CHARS)}…` : dataLine}`;
  return ` (JSON-RPC error ${answer.code}${data})`;
}
