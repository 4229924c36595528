import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** How long a closing stdin waits for answers still being worked on. */
export const DRAIN_MS = 5_000;

/**
 * Counts the requests a connected transport is answering, so that a client which writes its
 * last request and closes stdin (a script, `echo … | mcpterm serve`) still gets every answer.
 * Call after `server.connect(transport)`, which sets the handlers wrapped here.
 */
export function trackInFlight(transport: Transport): { idle(): Promise<void> } {
  let pending = 0;
  let wake: (() => void) | undefined;
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ("method" in message && "id" in message) pending++;
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      if ("id" in message && ("result" in message || "error" in message)) {
        pending = Math.max(0, pending - 1);
        if (pending === 0) wake?.();
      }
    }
  };
  return {
    idle: () =>
      pending === 0
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
