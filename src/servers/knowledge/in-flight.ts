import { PassThrough, type Readable, type Writable } from "node:stream";
import type { JSONRPCMessage, MessageExtraInfo, Transport } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

/** How long a closing stdin waits for answers still being worked on. */
export const DRAIN_MS = 5_000;

/**
 * A 2026 subscription stays open until the connection ends: it is never "still being worked on"
 * in the sense of an answer a script waits for.
 */
const OPEN_ENDED = new Set(["subscriptions/listen"]);

/** Requests read but not yet answered, past which stdin waits: answers are owed before more are read. */
const MAX_OWED = 64;

export interface DrainingStdio {
  /** The transport to serve on; it never sees stdin end, so it never aborts a request itself. */
  transport: Transport;
  /** Resolves once every request read so far is answered, or after DRAIN_MS. */
  idle(): Promise<void>;
  /** Resolves when the transport closed under the server (stdout gone, a message too large). */
  closed: Promise<void>;
}

/**
 * stdio for a server that answers everything it was asked before it stops. The SDK's stdio
 * transport closes as soon as stdin ends and drops the requests still in flight; a client that
 * writes its last request and closes stdin (a script, `echo … | mcpterm serve`) would lose those
 * answers. So the transport reads from a copy of stdin that never ends, the caller learns of the
 * real end from `stdin` itself, and waits for `idle()` before closing.
 */
export function drainingStdio(stdin: Readable, stdout: Writable): DrainingStdio {
  const copy = new PassThrough();
  const inner = new StdioServerTransport(copy, stdout);
  // The ids of requests read and not yet answered (a request the client cancels is owed nothing).
  const owed = new Set<string | number>();
  let wake: (() => void) | undefined;
  // A client that writes requests and never reads the answers must not make serve buffer them
  // without end: stdin is read only while stdout drains and not too many answers are owed.
  let reading = false;
  let closing = false;
  const regulate = (): void => {
    const wanted = !closing && !stdout.writableNeedDrain && owed.size < MAX_OWED;
    if (wanted === reading) return;
    reading = wanted;
    if (wanted) stdin.pipe(copy, { end: false });
    else stdin.unpipe(copy);
  };
  stdout.on("drain", regulate);
  regulate();

  const settle = (id: unknown): void => {
    if ((typeof id !== "string" && typeof id !== "number") || !owed.delete(id)) return;
    if (owed.size === 0) wake?.();
  };

  const transport: Transport = {
    start: () => inner.start(),
    close: async () => {
      closing = true;
      regulate();
      stdout.off("drain", regulate);
      await inner.close();
    },
    async send(message: JSONRPCMessage) {
      try {
        await inner.send(message);
      } finally {
        if ("id" in message && ("result" in message || "error" in message)) settle(message.id);
        regulate();
      }
    },
  };
  inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    if ("method" in message && "id" in message && !OPEN_ENDED.has(message.method)) owed.add(message.id);
    if ("method" in message && message.method === "notifications/cancelled") settle(cancelledId(message));
    regulate();
    transport.onmessage?.(message, extra);
  };
  let closedUnder: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (closedUnder = resolve));
  inner.onclose = () => {
    closedUnder();
    transport.onclose?.();
  };
  inner.onerror = (error) => transport.onerror?.(error);

  return {
    transport,
    closed,
    idle: () =>
      owed.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, DRAIN_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          }),
  };
}

function cancelledId(message: JSONRPCMessage): unknown {
  const params = "params" in message ? (message.params as { requestId?: unknown } | undefined) : undefined;
  return params?.requestId;
}
