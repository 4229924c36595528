import type { Root } from "../deprecated-mcp.js";
import type { OAuthOptions } from "../oauth/server-auth.js";
import type { ServerRequestHandlers } from "../person/server-request-handlers.js";
import type { CacheHit } from "./response-cache.js";
import type { ServerLogEntry } from "./server-log.js";
import type { SubscriptionEvent } from "./subscriptions.js";
import type { TransportFactory } from "./transport-factory.js";
import type { RequestMeta, WireFrame } from "./types.js";

/** What a ServerConnection is given: where what the server says goes, and who answers it. */
export interface ServerConnectionOptions {
  parentEnv: NodeJS.ProcessEnv;
  /**
   * Removes secrets from everything the server wrote (its stderr and stdout noise, its log
   * messages, error texts that quote them) before anyone can read it: shown, printed or traced.
   */
  redact: (text: string) => string;
  onChange: () => void;
  onWire?: (frame: WireFrame) => void;
  /** Each log message as it arrives (already kept in the connection's log), redacted. */
  onLog?: (entry: ServerLogEntry) => void;
  /** Each line a stdio server writes to stderr as it arrives, redacted and cut to 2,000 characters. */
  onStderr?: (server: string, line: string) => void;
  /** Each line a stdio server writes to stdout that is not JSON-RPC, as it arrives, redacted and cut alike. */
  onStdoutNoise?: (server: string, line: string, leftByExit: boolean) => void;
  /** `_meta` for each request mcpterm sends (trace context, when traces are exported). */
  requestMeta?: RequestMeta;
  /**
   * Whether a stdio server whose process exited while connected is started again (ServerRecovery;
   * a lost HTTP session is always replaced). A session's yes; a developer command's no: the crash
   * (its exit code and error line) is its answer, and it ends.
   */
  restartCrashed?: boolean;
  /** Answers the server's sampling and elicitation requests; without it they are declined. */
  requests?: ServerRequestHandlers;
  /** The roots the server is offered when it asks (roots/list). */
  roots?: () => Root[];
  /** Signing in to remote servers that need it (OAuth); without it a 401 is reported as it is. */
  oauth?: OAuthOptions;
  /** Grace periods when stopping a stdio server (tests shorten them). */
  shutdownGraceMs?: number;
  /** Makes the transports; by default the entry's command or URL. Tests may pass their own. */
  transports?: TransportFactory;
  /** Subscription streams opened and closed, and updates to subscribed resources (see subscriptions.ts). */
  onSubscription?: (event: SubscriptionEvent) => void;
  /** A list page or read answered from what the server said may be kept (see response-cache.ts). */
  onCacheHit?: (hit: CacheHit) => void;
}
