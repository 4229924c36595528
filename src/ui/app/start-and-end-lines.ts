import path from "node:path";

/**
 * Pure: the first line of a session: the version, the model, the folder (from the home folder as
 * `~`), the servers, and where to start — so a person knows at a glance what they are talking to.
 */
export function welcomeLine(parts: {
  version: string;
  model: string | undefined;
  cwd: string;
  home: string | undefined;
  servers: number;
}): string {
  const folder =
    parts.home && (parts.cwd === parts.home || parts.cwd.startsWith(parts.home + path.sep))
      ? `~${parts.cwd.slice(parts.home.length)}`
      : parts.cwd;
  const servers = parts.servers === 1 ? "1 server" : `${parts.servers} servers`;
  return [
    `mcpterm ${parts.version}`,
    parts.model ?? "no model set (/model <name>)",
    folder,
    servers,
    "/help for commands, Ctrl+D to exit",
  ].join(" · ");
}

/** Pure: the line left on the terminal when the TUI ends with a saved session: how to go on with it. */
export function resumeLine(sessionId: string | undefined): string | undefined {
  return sessionId === undefined
    ? undefined
    : `Saved as session ${sessionId}; go on with it: mcpterm --resume ${sessionId} (or mcpterm --continue)`;
}
