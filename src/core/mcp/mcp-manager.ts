import type { OAuthOptions } from "../oauth/server-auth.js";
import type { ServerConfig } from "../config/config-types.js";
import { redactWithPatterns } from "../policy/secret-patterns.js";
import type { ServerRequestHandlers } from "../person/server-request-handlers.js";
import type { RootList } from "./roots.js";
import { ServerConnection } from "./server-connection.js";
import type { ServerLogEntry } from "./server-log.js";
import { McpManagerCore } from "./mcp-manager-core.js";
import type { RequestMeta, WireFrame } from "./types.js";

export type { RegisteredTool } from "./mcp-manager-core.js";
import type { SubscriptionEvent } from "./subscriptions.js";
import type { CacheHit } from "./response-cache.js";

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
  onStdoutNoise?: (server: string, line: string, leftByExit: boolean) => void;
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

/**
 * Owns every server connection: starts them all in parallel, reports status changes, exposes
 * the tools of whichever servers are ready, and closes them all (with their process trees).
 * As a type, McpManagerCore, which does all that; as a value, the class below, which makes the
 * connections (and so loads the MCP SDK). A session without servers uses the core alone
 * (session/session-servers.ts) and never loads the SDK.
 */
export type McpManager = McpManagerCore;

class ConnectingMcpManager extends McpManagerCore {
  constructor(servers: readonly ServerConfig[], options: McpManagerOptions) {
    const { roots } = options;
    super(servers, roots, (config, onChange) => {
      const connectionOptions = {
        parentEnv: options.parentEnv,
        redact: options.redact ?? redactPatterns,
        onChange,
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
      return new ServerConnection(config, connectionOptions);
    });
  }
}
export const McpManager = ConnectingMcpManager;

function redactPatterns(text: string): string {
  return redactWithPatterns(text).text;
}
