import { PROTOCOL_VERSION_META } from "../core/mcp/protocol-era.js";
import type { WireFrame } from "../core/mcp/types.js";
import { isTaskAnswer, lacksContent } from "../core/mcp/tool-result-kinds.js";
import { SlipWatch, type JsonRpcSlips } from "./json-rpc-slips.js";

/** One request type as the wire saw it: how long its answers took in all, over how many pages. */
export interface RequestTiming {
  ms: number;
  requests: number;
  /** The error the server answered with, when one of them failed. */
  error: string | undefined;
}

/**
 * What the initialize answer (2025) or the server/discover answer (2026-07-28) said, read from the wire (the connection keeps only some of it); the
 * protocol is the connection's own (protocol-facts.ts).
 */
export interface HandshakeAnswer {
  ms: number;
  capabilities: Record<string, unknown>;
  serverInfo: { name?: string; version?: string } | undefined;
  instructions: string | undefined;
}

/**
 * Times each request the doctor watched (initialize, the lists), from the frames the connection
 * reports: a request's time is from its frame going out to its answer coming in, summed over a
 * list's pages. Requests never answered are left out.
 */
export class WireWatch {
  private readonly sent = new Map<string, { method: string; at: number; id: unknown; modern: boolean }>();
  private readonly timings = new Map<string, RequestTiming>();
  private handshake: HandshakeAnswer | undefined;
  /** When the first handshake request went out: a probe waited out (or a process started again) is part of connecting. */
  private handshakeAskedAt: number | undefined;
  private readonly methodsAsked = new Set<string>();
  /** The requests answered, by key, with their method: a second answer to one is a slip. */
  private readonly answered = new Map<string, string>();
  private readonly slipsSeen = new SlipWatch();

  readonly onFrame = (frame: WireFrame): void => {
    const message = frame.message as {
      id?: unknown;
      method?: unknown;
      params?: unknown;
      result?: unknown;
      error?: unknown;
    };
    if (frame.direction === "receive" && message.method === "notifications/progress")
      this.slipsSeen.progress(frame.server, message.params);
    if (message.id === undefined || message.id === null) return;
    const id =
      typeof message.id === "string" || typeof message.id === "number"
        ? message.id
        : JSON.stringify(message.id);
    const key = `${frame.server}\u0000${id}`;
    if (frame.direction === "send" && typeof message.method === "string") {
      this.slipsSeen.asked(frame.server, key, message.params);
      this.sent.set(key, {
        method: message.method,
        at: frame.at,
        id: message.id,
        modern: isModern(message.params),
      });
      if (message.method === "server/discover" || message.method === "initialize")
        this.handshakeAskedAt ??= frame.at;
      this.methodsAsked.add(message.method);
      return;
    }
    if (frame.direction !== "receive" || message.method !== undefined) return;
    const request = this.sent.get(key);
    if (!request) {
      const method = this.answered.get(key);
      if (method !== undefined) this.slipsSeen.answeredAgain(method, message.id);
      return;
    }
    this.sent.delete(key);
    this.answered.set(key, request.method);
    this.slipsSeen.answered(key, isTaskAnswer(message.result));
    if (typeof message.id !== typeof request.id)
      this.slipsSeen.idRetyped(request.method, request.id, message.id);
    // A 2026 request's answer without content failed the call already (the SDK checks it).
    if (request.method === "tools/call" && !request.modern && lacksContent(message.result))
      this.slipsSeen.contentMissing(request.method, message.id);
    const ms = frame.at - request.at;
    const error =
      isRecord(message.error) && typeof message.error.message === "string"
        ? message.error.message
        : undefined;
    const before = this.timings.get(request.method);
    this.timings.set(request.method, {
      ms: (before?.ms ?? 0) + ms,
      requests: (before?.requests ?? 0) + 1,
      error: before?.error ?? error,
    });
    const connectingMs = frame.at - (this.handshakeAskedAt ?? request.at);
    if (request.method === "initialize" && isRecord(message.result))
      this.handshake = handshakeOf(message.result, connectingMs);
    // A 2026 server's discovery answer is its handshake; one without versions is not (a 2025
    // server that answers anything with {} is then asked initialize).
    if (
      request.method === "server/discover" &&
      isRecord(message.result) &&
      Array.isArray(message.result.supportedVersions)
    )
      this.handshake = handshakeOf(message.result, connectingMs);
  };

  /** Whether a request of `method` went out, answered or not. */
  asked(method: string): boolean {
    return this.methodsAsked.has(method);
  }

  timing(method: string): RequestTiming | undefined {
    return this.timings.get(method);
  }

  initialize(): HandshakeAnswer | undefined {
    return this.handshake;
  }

  /** What the server sent that JSON-RPC 2.0 or MCP forbids, though the SDK let it pass. */
  slips(): JsonRpcSlips {
    return this.slipsSeen.seen();
  }
}

/** Whether a request went out in 2026-07-28's envelope: its revision in every request's `_meta`. */
function isModern(params: unknown): boolean {
  return isRecord(params) && isRecord(params._meta) && PROTOCOL_VERSION_META in params._meta;
}

/** Where a 2026-07-28 answer names its server, beside the result. */
const SERVER_INFO_META = "io.modelcontextprotocol/serverInfo";

function handshakeOf(result: Record<string, unknown>, ms: number): HandshakeAnswer {
  const meta = isRecord(result._meta) ? result._meta : {};
  const info = isRecord(result.serverInfo)
    ? result.serverInfo
    : isRecord(meta[SERVER_INFO_META])
      ? meta[SERVER_INFO_META]
      : undefined;
  return {
    ms,
    capabilities: isRecord(result.capabilities) ? result.capabilities : {},
    serverInfo: info
      ? {
          ...(typeof info.name === "string" ? { name: info.name } : {}),
          ...(typeof info.version === "string" ? { version: info.version } : {}),
        }
      : undefined,
    instructions: typeof result.instructions === "string" ? result.instructions : undefined,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
