import type { McpManager } from "./mcp-manager.js";
import type { ServerExitReport } from "./server-exit.js";
import type { ServerStatus } from "./types.js";

/**
 * Calls `onExit` each time a stdio server's process ends of itself under the manager — at start,
 * or after it was connected (`wasConnected`) — with the report of how and why, and whether it is
 * being started again (`restarting`: the crash recovery). Returns the unsubscribe.
 */
export function watchServerExits(
  manager: Pick<McpManager, "subscribe" | "servers" | "connection">,
  onExit: (server: string, report: ServerExitReport, wasConnected: boolean, restarting: boolean) => void,
): () => void {
  const last = new Map<string, ServerStatus>();
  return manager.subscribe(() => {
    for (const snapshot of manager.servers()) {
      const before = last.get(snapshot.name);
      last.set(snapshot.name, snapshot.status);
      const lost =
        snapshot.status === "failed" || (snapshot.status === "connecting" && before === "connected");
      if (!lost || before === snapshot.status) continue;
      // A process mcpterm stopped (a person's `/mcp restart`) did not crash, whatever its code.
      const report = manager.connection(snapshot.name)?.ownExitReport();
      if (report) onExit(snapshot.name, report, before === "connected", snapshot.status === "connecting");
    }
  });
}
