import { formatBytes } from "../text/index.js";

/**
 * The most one JSON-RPC message from a server may be, over stdio (in characters) and over HTTP
 * (in bytes): real results stay far below it, and past it a server is flooding its client.
 */
export const MAX_MESSAGE_SIZE = 64 * 1_048_576;

const OVERSIZED = "the server sent one message of more than";

/** What a connection stopped by a message past `limit` says. */
export function oversizedMessage(limit: number): string {
  return `${OVERSIZED} ${formatBytes(limit)}`;
}

/** Whether an error's message is that sentence, however the SDK passed it on. */
export function isOversizedMessage(message: string): boolean {
  return message.includes(OVERSIZED);
}
