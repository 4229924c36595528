import type { McpManager } from "./mcp-manager.js";

/**
 * Calls `onFailed` once for each server that fails before it was ever connected this session
 * (its process exited at start, its URL did not answer, its config entry has a problem), with
 * why: a server lost after it connected is told by watchServerExits, and a `/mcp restart` says
 * how it went itself. A server already failed when this is called is told at once. Returns the
 * unsubscribe.
 */
export function watchStartFailures(
  manager: Pick<McpManager, "subscribe" | "servers">,
  onFailed: (server: string, reason: string | undefined) => void,
): () => void {
  const connected = new Set<string>();
  const told = new Set<string>();
  const check = (): void => {
    for (const { name, status, error } of manager.servers()) {
      if (status === "connected") connected.add(name);
      if (status !== "failed" || connected.has(name) || told.has(name)) continue;
      told.add(name);
      onFailed(name, error);
    }
  };
  const unsubscribe = manager.subscribe(check);
  check();
  return unsubscribe;
}

/** What the person is told of a server that could not be started (a notice, a `warning:` line). */
export function startFailureSentence(server: string, reason: string | undefined): string {
  return `server "${server}" could not be started${reason ? `: ${reason}` : ""} — its tools are unavailable`;
}
