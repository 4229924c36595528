import { SpanKind, SpanStatusCode, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { PROTOCOL_VERSION_META } from "../mcp/protocol-era.js";
import type { OutgoingRequest, WireFrame } from "../mcp/types.js";
import { carrierFor, type TraceCarrier } from "./span-context.js";

/** How a server is reached, for `network.transport` and `server.address` on its requests' spans. */
export interface ServerEndpoint {
  transport: "stdio" | "http" | "sse";
  url: string | undefined;
}

export interface McpRequestSpanOptions {
  tracer: Tracer;
  /** The context a request's span is a child of: its tool call's, the turn's, start-up's, or none. */
  parentFor: (request: OutgoingRequest) => Context;
  endpoint: (server: string) => ServerEndpoint | undefined;
  redact: (text: string) => string;
}

/**
 * One CLIENT span per JSON-RPC request mcpterm sends a server, by the MCP semantic conventions
 * (`{mcp.method.name} {target}`): opened as the request leaves, its trace context put in the
 * request's `_meta` (so the server's own spans are its children), closed by the answer with the
 * same id, a cancellation, or the end of the session.
 */
export class McpRequestSpans {
  /** Open spans by server and JSON-RPC id. */
  private readonly open = new Map<string, Span>();
  /** The protocol version each server agreed in initialize. */
  private readonly versions = new Map<string, string>();

  constructor(private readonly options: McpRequestSpanOptions) {}

  /** Opens the request's span; returns what its `_meta` carries. */
  readonly requestMeta = (request: OutgoingRequest): TraceCarrier => {
    const target = targetOf(request);
    const version = this.versions.get(request.server);
    const endpoint = this.options.endpoint(request.server);
    const span = this.options.tracer.startSpan(
      target === undefined ? request.method : `${request.method} ${target.name}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          "mcp.method.name": request.method,
          "jsonrpc.request.id": String(request.id),
          "mcpterm.mcp.server": request.server,
          ...(target ? { [target.attribute]: this.options.redact(target.name) } : {}),
          ...(typeof request.params?.uri === "string"
            ? { "mcp.resource.uri": this.options.redact(request.params.uri) }
            : {}),
          ...(request.method === "tools/call" ? { "gen_ai.operation.name": "execute_tool" } : {}),
          ...(version === undefined ? {} : { "mcp.protocol.version": version }),
          ...(endpoint ? endpointAttributes(endpoint, this.options.redact) : {}),
        },
      },
      this.options.parentFor(request),
    );
    this.open.set(key(request.server, request.id), span);
    return carrierFor(span);
  };

  /** A frame from the wire: an answer closes its request's span, a cancellation too. */
  wire(frame: WireFrame): void {
    const message = frame.message as {
      id?: unknown;
      method?: unknown;
      params?: { requestId?: unknown; reason?: unknown; _meta?: Record<string, unknown> };
      result?: { protocolVersion?: unknown; isError?: unknown };
      error?: { code?: unknown; message?: unknown };
    } | null;
    if (typeof message !== "object" || message === null) return;
    if (frame.direction === "send") {
      // A 2026-07-28 request names its revision itself: there is no initialize to learn it from.
      const revision = message.params?._meta?.[PROTOCOL_VERSION_META];
      if (typeof revision === "string" && isId(message.id)) {
        this.versions.set(frame.server, revision);
        this.open.get(key(frame.server, message.id))?.setAttribute("mcp.protocol.version", revision);
      }
      if (message.method === "notifications/cancelled" && isId(message.params?.requestId))
        this.finish(frame.server, message.params.requestId, (span) => {
          span.setAttribute("error.type", "cancelled");
          span.setStatus({ code: SpanStatusCode.ERROR, message: "cancelled by mcpterm" });
        });
      return;
    }
    if (message.method !== undefined || !isId(message.id)) return;
    this.finish(frame.server, message.id, (span) => {
      const { result, error } = message;
      if (error) {
        const code = typeof error.code === "number" ? error.code : undefined;
        span.setAttributes({
          "error.type": code === undefined ? "error" : String(code),
          ...(code === undefined ? {} : { "rpc.response.status_code": String(code) }),
        });
        const text = typeof error.message === "string" ? error.message : "error";
        span.setStatus({ code: SpanStatusCode.ERROR, message: this.options.redact(text).slice(0, 500) });
        return;
      }
      if (typeof result?.protocolVersion === "string") {
        this.versions.set(frame.server, result.protocolVersion);
        span.setAttribute("mcp.protocol.version", result.protocolVersion);
      }
      // A tool's own failure, answered as a result (semantic conventions: error.type tool_error).
      if (result?.isError === true) {
        span.setAttribute("error.type", "tool_error");
        span.setStatus({ code: SpanStatusCode.ERROR, message: "the tool reported an error" });
      }
    });
  }

  /** Ends the spans of requests that never got an answer (the session ends, a server went away). */
  endAll(reason: string): void {
    for (const span of this.open.values()) {
      span.setAttribute("error.type", "unanswered");
      span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
      span.end();
    }
    this.open.clear();
  }

  private finish(server: string, id: string | number, describe: (span: Span) => void): void {
    const span = this.open.get(key(server, id));
    if (span === undefined) return;
    this.open.delete(key(server, id));
    describe(span);
    span.end();
  }
}

function key(server: string, id: string | number): string {
  return `${server}\u0000${typeof id}\u0000${String(id)}`;
}

function isId(value: unknown): value is string | number {
  return typeof value === "string" || typeof value === "number";
}

/** What the request is about, where the conventions name it: a tool, a prompt, a resource. */
function targetOf(request: OutgoingRequest): { name: string; attribute: string } | undefined {
  const params = request.params ?? {};
  if (request.method === "tools/call" && typeof params.name === "string")
    return { name: params.name, attribute: "gen_ai.tool.name" };
  if (request.method === "prompts/get" && typeof params.name === "string")
    return { name: params.name, attribute: "gen_ai.prompt.name" };
  // A URI is not low-cardinality: it is an attribute, never part of the span's name.
  return undefined;
}

function endpointAttributes(
  endpoint: ServerEndpoint,
  redact: (text: string) => string,
): Record<string, string | number> {
  if (endpoint.transport === "stdio" || endpoint.url === undefined) return { "network.transport": "pipe" };
  try {
    const url = new URL(endpoint.url);
    const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
    return { "network.transport": "tcp", "server.address": redact(url.hostname), "server.port": port };
  } catch {
    return { "network.transport": "tcp" };
  }
}
