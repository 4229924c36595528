import type { OAuthOptions } from "../oauth/server-auth.js";
import type { ServerConfig } from "../config/config-types.js";
import { ServerUnavailableError } from "../errors.js";
import { redactWithPatterns } from "../policy/secret-patterns.js";
import type { ServerRequestHandlers } from "../person/server-request-handlers.js";
import type { RootList } from "./roots.js";
import { ServerConnection } from "./server-connection.js";
import type { ServerLogEntry } from "./server-log.js";
import type { SubscriptionEvent } from "./subscriptions.js";
import type { CacheHit } from "./response-cache.js";
import { assignModelToolNames } from "./tool-names.js";
import type {
  CallOptions,
  CallToolResult,
  RequestMeta,
  ServerSnapshot,
  ServerTool,
  WireFrame,
} from "./types.js";

export interface McpManagerOptions {
  parentEnv: NodeJS.ProcessEnv;
  /**
   * Removes secrets from what servers write (see ServerConnectionOptions.redact). Default: the
   * secret patterns alone; sessions pass their redactor, which also knows the config's secrets.
   */
  redact?: (text: string) => string;
  onWire?: (frame: WireFrame) => void;
  /** Every server's log messages as they arrive (also kept per server for /mcp logs). */
  onLog?: (entry: ServerLogEntry) => void;
  /** Every stdio server's stderr lines as they arrive, redacted (also kept per server). */
  onStderr?: (server: string, line: string) => void;
  /** Every stdio server's non-JSON stdout lines as they arrive, redacted (also kept per server). */
  onStdoutNoise?: (server: string, line: string) => void;
  /** Answers sampling and elicitation; without it they are declined. */
  requests?: ServerRequestHandlers;
  /** Signing in to remote servers that need OAuth; without it a 401 is reported as it is. */
  oauth?: OAuthOptions;
  /** The roots offered to servers; each connected server is told when they change. */
  roots?: RootList;
  shutdownGraceMs?: number;
  /** `_meta` entries merged into every request's params (trace context when traces are exported). */
  requestMeta?: RequestMeta;
  /** Whether crashed stdio servers are started again (default yes; see ServerConnectionOptions.restartCrashed). */
  restartCrashed?: boolean;
  /** Every server's subscription streams and resource updates (see subscriptions.ts). */
  onSubscription?: (event: SubscriptionEvent) => void;
  /** Results answered from what servers said may be kept (see response-cache.ts). */
  onCacheHit?: (hit: CacheHit) => void;
}

/** A tool of a connected server under the name the model sees. */
export interface RegisteredTool extends ServerTool {
  modelName: string;
}

/**
 * Owns every server connection: starts them all in parallel, reports status changes, exposes
 * the tools of whichever servers are ready, and closes them all (with their process trees).
 */
export class McpManager {
  private readonly connections = new Map<string, ServerConnection>();
  private readonly listeners = new Set<() => void>();
  private started: Promise<void> | undefined;
  private readonly unsubscribeRoots: (() => void) | undefined;

  constructor(servers: readonly ServerConfig[], options: McpManagerOptions) {
    const { roots } = options;
    for (const config of servers) {
      const connectionOptions = {
        parentEnv: options.parentEnv,
        redact: options.redact ?? redactPatterns,
        onChange: () => this.notify(),
        ...(options.onWire ? { onWire: options.onWire } : {}),
        ...(options.onLog ? { onLog: options.onLog } : {}),
        ...(options.onStderr ? { onStderr: options.onStderr } : {}),
        ...(options.onStdoutNoise ? { onStdoutNoise: options.onStdoutNoise } : {}),
        ...(options.requests ? { requests: options.requests } : {}),
        ...(options.oauth ? { oauth: options.oauth } : {}),
        ...(roots ? { roots: () => roots.list() } : {}),
        ...(options.shutdownGraceMs === undefined ? {} : { shutdownGraceMs: options.shutdownGraceMs }),
        ...(options.requestMeta ? { requestMeta: options.requestMeta } : {}),
        ...(options.restartCrashed === undefined ? {} : { restartCrashed: options.restartCrashed }),
        ...(options.onSubscription ? { onSubscription: options.onSubscription } : {}),
        ...(options.onCacheHit ? { onCacheHit: options.onCacheHit } : {}),
      };
      this.connections.set(config.name, new ServerConnection(config, connectionOptions));
    }
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

function redactPatterns(text: string): string {
  return redactWithPatterns(text).text;
}
