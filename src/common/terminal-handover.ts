/**
 * Whether another program has the terminal (an external editor): then Ctrl+C is a SIGINT to the
 * whole foreground group, mcpterm included, but it is that program's key (vim cancels with it),
 * never a reason to end the session under it. Process-wide, as signals are.
 */
let handedOver = 0;

export function terminalHandedOver(): boolean {
  return handedOver > 0;
}

/** Runs `run` with the terminal counted as handed over, until it settles. */
export async function withTerminalHandedOver<T>(run: () => Promise<T>): Promise<T> {
  handedOver += 1;
  try {
    return await run();
  } finally {
    handedOver -= 1;
  }
}
