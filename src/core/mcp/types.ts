import type { CallToolResult, ServerCapabilities, Tool } from "@modelcontextprotocol/client";
import type { ProtocolEra } from "./protocol-era.js";
import type { TaskUpdate } from "./task-state.js";
import type { CacheHint } from "./response-cache.js";
import type { CatalogSnapshot } from "./server-catalog.js";
import type { ProbeOutcome } from "./probe-watch.js";

export type ServerStatus = "connecting" | "connected" | "failed" | "closed" | "disabled";

/** A server's status as the rest of a sentence about it: `server "x" has failed`, `… is still connecting`. */
export function statusPhrase(status: ServerStatus | undefined): string {
  switch (status) {
    case "failed":
      return "has failed";
    case "connecting":
      return "is still connecting";
    case undefined:
      return "is not known";
    case "connected":
    case "closed":
    case "disabled":
      return `is ${status}`;
  }
}

export type WireDirection = "send" | "receive";

/** One JSON-RPC message on its way to or from a server, for the trace. */
export interface WireFrame {
  server: string;
  direction: WireDirection;
  at: number;
  message: unknown;
}

/** A tool as one server offers it. */
export interface ServerTool {
  server: string;
  definition: Tool;
}

export interface ServerSnapshot {
  name: string;
  status: ServerStatus;
  transport: "stdio" | "http" | "sse";
  /** Process id of a stdio server while it runs. */
  pid: number | undefined;
  url: string | undefined;
  /** Why the server failed, in one sentence with the cause (spawn error, exit code and stderr, timeout, HTTP status). */
  error: string | undefined;
  tools: ServerTool[];
  /** Tools it listed that mcpterm dropped, each with why (SEP-2243 x-mcp-header rules, 2026 HTTP). */
  refusedTools: Array<{ name: string; reason: string }>;
  /** Tools it listed that its config entry leaves out (includeTools, excludeTools). */
  leftOutTools?: ReadonlyArray<{ name: string; by: "includeTools" | "excludeTools" }>;
  /** Names its config entry gives tools it does not list (a typo in includeTools hides them all). */
  configNameProblems?: readonly string[];
  /** What the server says it is; a 2026 server may not say. */
  serverInfo: { name: string; version: string } | undefined;
  /** Which family of revisions the server speaks (see ProtocolEra), once connected. */
  era: ProtocolEra | undefined;
  /** The revision settled with the server: server/discover's, or initialize's. */
  protocolVersion: string | undefined;
  instructions: string | undefined;
  /** Milliseconds from start to connected (the revision settled) and the tools listed. */
  initializeMs: number | undefined;
  /** The 2026 probe went unanswered, was answered too late, or ended the process, before it spoke 2025 (ProbeOutcome). */
  probe?: ProbeOutcome;
  /** Its resources, resource templates and prompts while connected (empty until listed). */
  catalog: CatalogSnapshot;
  /** What the server said it offers in initialize, while connected. */
  capabilities: ServerCapabilities | undefined;
  /**
   * How long the server said each kind of result may be kept (2026 ttlMs, cacheScope), as its
   * last result of that kind said: `{"tools/list": {ttlMs: 60000, cacheScope: "public"}}`.
   */
  cacheHints?: Record<string, CacheHint>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the server's configured per-call timeout (the silence that progress restarts). */
  timeoutMs?: number;
  /** Overrides the server's hard limit on one call (which progress does not move), and names it. */
  maxCall?: { ms: number; setting: string };
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** When the server runs the call as a task: its creation and each change of status (tasks/). */
  onTask?: (update: TaskUpdate) => void;
  /**
   * Whether the call may be sent again if it may have reached the server (resendIsSafe decides:
   * a read-only tool of a trusted server). Never when absent.
   */
  resendSafe?: boolean;
}

export type { CallToolResult };

/** A JSON-RPC request mcpterm is about to send a server, as its `_meta` hook sees it. */
export interface OutgoingRequest {
  server: string;
  method: string;
  /** The JSON-RPC id, which its answer carries back. */
  id: string | number;
  params: Record<string, unknown> | undefined;
}

/**
 * Entries to merge into a request's `params._meta` (W3C trace context: `traceparent`,
 * `tracestate`), or undefined for none. Called once per request, just before it is sent.
 */
export type RequestMeta = (request: OutgoingRequest) => Record<string, string> | undefined;

/** A server's state without its tool definitions: what reports and traces record about it. */
export type ServerSummary = Omit<
  ServerSnapshot,
  "tools" | "instructions" | "catalog" | "capabilities" | "refusedTools"
> & {
  toolCount: number;
};

export function summarizeServer(server: ServerSnapshot): ServerSummary {
  const {
    tools,
    instructions: _instructions,
    catalog: _catalog,
    capabilities: _capabilities,
    refusedTools: _refused,
    ...rest
  } = server;
  return { ...rest, toolCount: tools.length };
}
