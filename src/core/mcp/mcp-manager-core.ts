import type { ServerConfig } from "../config/config-types.js";
import { ServerUnavailableError } from "../errors.js";
import type { RootList } from "./roots.js";
import type { ServerConnection } from "./server-connection.js";
import type { TaskEntry } from "./task-list.js";
import { assignModelToolNames } from "./tool-names.js";
import type { CallOptions, CallToolResult, ServerSnapshot, ServerTool } from "./types.js";

/** A tool of a connected server under the name the model sees. */
export interface RegisteredTool extends ServerTool {
  modelName: string;
}

/** Makes the connection for one server; `onChange` is called on each of its status changes. */
export type OpenConnection = (config: ServerConfig, onChange: () => void) => ServerConnection;

/**
 * Owns every server connection: starts them all in parallel, reports status changes, exposes
 * the tools of whichever servers are ready, and closes them all (with their process trees).
 * McpManager (mcp-manager.ts) opens real connections; this class never imports the connection
 * module, so a session without servers does not load the MCP SDK (about a third of `-p`'s start).
 */
export class McpManagerCore {
  private readonly connections = new Map<string, ServerConnection>();
  private readonly listeners = new Set<() => void>();
  private started: Promise<void> | undefined;
  private readonly unsubscribeRoots: (() => void) | undefined;

  constructor(servers: readonly ServerConfig[], roots: RootList | undefined, open: OpenConnection) {
    for (const config of servers)
      this.connections.set(
        config.name,
        open(config, () => this.notify()),
      );
    this.unsubscribeRoots = roots?.subscribe(() => {
      for (const connection of this.connections.values()) void connection.rootsChanged();
    });
  }

  /** Starts connecting every enabled server without waiting; each becomes usable when it is ready. */
  start(): Promise<void> {
    this.started ??= Promise.all(
      [...this.connections.values()].map((connection) => connection.connect()),
    ).then(() => undefined);
    return this.started;
  }

  /** Resolves when every connection attempt has settled, connected or failed. */
  whenSettled(): Promise<void> {
    return this.start();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  servers(): ServerSnapshot[] {
    return [...this.connections.values()].map((connection) => connection.snapshot());
  }

  connection(name: string): ServerConnection | undefined {
    return this.connections.get(name);
  }

  /** Tools of the servers connected right now, named for the model, in config order. */
  tools(): RegisteredTool[] {
    const available = this.servers().flatMap((server) => server.tools);
    const names = assignModelToolNames(
      available.map((tool) => ({ server: tool.server, tool: tool.definition.name })),
    );
    const byIdentity = new Map<string, string>();
    for (const [modelName, identity] of names)
      byIdentity.set(`${identity.server}\u0000${identity.tool}`, modelName);
    return available.map((tool) => ({
      ...tool,
      modelName: byIdentity.get(`${tool.server}\u0000${tool.definition.name}`) ?? tool.definition.name,
    }));
  }

  callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<CallToolResult> {
    return this.require(server).callTool(tool, args, options);
  }

  /** Every task the servers ran for this session, oldest first (`/tasks`). */
  tasks(): TaskEntry[] {
    return [...this.connections.values()]
      .flatMap((connection) => connection.taskList())
      .sort((a, b) => a.startedAt - b.startedAt);
  }

  /**
   * Resolves true once `server` has no announced tool change left to list (at once for an unknown
   * or stopped server), false if `ms` pass first.
   */
  toolsSettled(server: string, ms: number): Promise<boolean> {
    return this.connections.get(server)?.toolsSettled(ms) ?? Promise.resolve(true);
  }

  async restart(server: string): Promise<void> {
    await this.require(server).restart();
  }

  async close(): Promise<void> {
    this.unsubscribeRoots?.();
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  private require(name: string): ServerConnection {
    const connection = this.connections.get(name);
    if (!connection) {
      const known = [...this.connections.keys()].join(", ") || "none";
      throw new ServerUnavailableError(
        `There is no server named "${name}" in the config (servers: ${known}).`,
      );
    }
    return connection;
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
