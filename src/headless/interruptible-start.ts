import { RuntimeError } from "../core/errors.js";
import type { McpManager } from "../core/mcp/mcp-manager.js";

/**
 * Starts a command's servers, unless Ctrl+C (or SIGTERM) comes first or while they start: then
 * they are stopped at once and the command ends as `interrupted` (exit 130), not after a slow
 * server's whole startupTimeoutMs, and not with what the stop did to a starting server told as
 * its failure (`did not finish connecting`). Servers run in process groups of their own, so the
 * terminal's Ctrl+C reaches only mcpterm; stopping them is its work. `watchWhile` keeps the stop
 * armed for what follows the start too (a sign-in waiting on the browser), until it settles.
 */
export async function startUnlessInterrupted<T = void>(
  manager: McpManager,
  signal: AbortSignal,
  watchWhile: () => Promise<T> = () => Promise.resolve(undefined as T),
): Promise<T> {
  // A Ctrl+C before this point fired no listener: nothing is started after it.
  if (signal.aborted) throw new RuntimeError("interrupted");
  const stop = (): void => void manager.close();
  signal.addEventListener("abort", stop, { once: true });
  try {
    await manager.start();
    if (isAborted(signal)) throw new RuntimeError("interrupted");
    return await watchWhile();
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

/** Read through a function: the signal may have fired while the start was awaited. */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}
