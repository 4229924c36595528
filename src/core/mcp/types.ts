import type { CallToolResult, ServerCapabilities, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { CatalogSnapshot } from "./server-catalog.js";

export type ServerStatus = "connecting" | "connected" | "failed" | "closed" | "disabled";

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
  serverInfo: { name: string; version: string } | undefined;
  protocolVersion: string | undefined;
  instructions: string | undefined;
  /** Milliseconds from start to a completed initialize. */
  initializeMs: number | undefined;
  /** Its resources, resource templates and prompts while connected (empty until listed). */
  catalog: CatalogSnapshot;
  /** What the server said it offers in initialize, while connected. */
  capabilities: ServerCapabilities | undefined;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the server's configured per-call timeout. */
  timeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
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
export type ServerSummary = Omit<ServerSnapshot, "tools" | "instructions" | "catalog" | "capabilities"> & {
  toolCount: number;
};

export function summarizeServer(server: ServerSnapshot): ServerSummary {
  const {
    tools,
    instructions: _instructions,
    catalog: _catalog,
    capabilities: _capabilities,
    ...rest
  } = server;
  return { ...rest, toolCount: tools.length };
}
