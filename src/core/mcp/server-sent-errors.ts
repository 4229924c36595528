import { randomUUID } from "node:crypto";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";

/**
 * mcpterm answers a request whose response stream closed unanswered itself, with JSON-RPC code
 * -32000, and a server may answer with that code (or -32001, the v1 SDK's timeout) for failures
 * of its own ("the upstream database timed out"). Read as mcpterm's own, a server's answer had
 * its message replaced and a read-only call sent again. An error answer from the server with one
 * of these codes gets this in place of its `data`, which says it came back from the server.
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

/**
 * -32000 is what the unanswered-stream guard answers with (STREAM_CLOSED_CODE); -32001 was the v1
 * SDK's timeout, which 2025 servers built on it may still send as their own.
 */
const CLIENT_CODES: readonly number[] = [-32000, -32001];

/** `message` as the SDK should see it: a server's error answer with a client code is marked. */
export function markServerSentError(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message) || !CLIENT_CODES.includes(message.error.code)) return message;
  const data: unknown = message.error.data;
  if (raisedByMcpterm(data)) return message;
  return { ...message, error: { ...message.error, data: new ServerSentError(data) } };
}

/** Whether an error's `data` is stamped as one mcpterm made up itself (CLIENT_RAISED). */
export function raisedByMcpterm(data: unknown): boolean {
  return (
    typeof data === "object" && data !== null && (data as { raisedBy?: unknown }).raisedBy === CLIENT_RAISED
  );
}
