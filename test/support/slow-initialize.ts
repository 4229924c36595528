/**
 * Lint warns of a server that took over 2 s to connect and initialize (slow-initialize), which a
 * loaded machine can make any fixture do: how many such warnings `stdout` shows (0 or 1), for a
 * test whose counts must not depend on the machine's load.
 */
export function slowInitializeWarnings(stdout: string): number {
  return stdout.includes("warning slow-initialize") ? 1 : 0;
}
