import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Starts `server` on a free port of 127.0.0.1 and adds its stop to `closers` (every connection
 * ended first, so a stream left open does not hold the test). Resolves with its origin,
 * `http://127.0.0.1:<port>`.
 */
export async function listenOnLoopback(server: Server, closers: Array<() => Promise<void>>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
