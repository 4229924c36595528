import { randomUUID } from "node:crypto";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * The SDK reports mcpterm's own transport failures with two JSON-RPC codes, -32000 (connection
 * closed) and -32001 (request timed out), and a server may answer with the same codes for
 * failures of its own ("the upstream database timed out"). The SDK builds the same kind of error
 * from either, so a server's answer read as mcpterm's lost connection or timeout: its message was
 * replaced, and a read-only call sent again twice. An error answer from the server with one of
 * these codes gets this in place of its `data`, which says it came back from the server.
 */
export class ServerSentError {
  constructor(
    /** The server's own `data`, kept. */
    readonly data: unknown,
  ) {}
}

/**
 * Stamped into the `data` of the answers mcpterm makes up itself for a server (a response stream
 * closed unanswered): random per process, so no server can pass its error off as one of these.
 */
export const CLIENT_RAISED = randomUUID();

const CLIENT_CODES: readonly number[] = [ErrorCode.ConnectionClosed, ErrorCode.RequestTimeout];

/** `message` as the SDK should see it: a server's error answer with a client code is marked. */
export function markServerSentError(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message) || !CLIENT_CODES.includes(message.error.code)) return message;
  const data: unknown = message.error.data;
  if (
    typeof data === "object" &&
    data !== null &&
    (data as { raisedBy?: unknown }).raisedBy === CLIENT_RAISED
  )
    return message;
  return { ...message, error: { ...message.error, data: new ServerSentError(data) } };
}
