/**
 * Whether another program has the terminal (an external editor): then Ctrl+C is a SIGINT to the
 * whole foreground group, mcpterm included, but it is that program's key (vim cancels with it),
 * never a reason to end the session under it. Process-wide, as signals are.
 */
let handedOver = 0;

/**
 * How long after the terminal comes back a SIGINT still counts as typed while it was away. The
 * kernel sends a Ctrl+C to mcpterm when it is typed, but mcpterm reads signals and the editor's
 * exit from different wake-ups, in either order: one typed as the editor closes can be read after
 * mcpterm has taken the terminal back. Once raw mode is on, Ctrl+C is a key, not a signal, so
 * only a signal already on its way falls in this window (or a `kill -INT` sent within it).
 */
const SIGNALS_IN_FLIGHT_MS = 250;

export function terminalHandedOver(): boolean {
  return handedOver > 0;
}

/**
 * Runs `run` with the terminal counted as handed over, from the moment it is given away until
 * signals sent while it was away have been read: the timer, then one more poll of the event loop
 * (where a signal waiting in libuv's pipe is read) before the count drops.
 */
export async function withTerminalHandedOver<T>(run: () => Promise<T>): Promise<T> {
  handedOver += 1;
  try {
    return await run();
  } finally {
    setTimeout(() => setImmediate(() => (handedOver -= 1)), SIGNALS_IN_FLIGHT_MS).unref();
  }
}
