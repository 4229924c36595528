import type { WireFrame } from "../core/mcp/types.js";

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
  private readonly sent = new Map<string, { method: string; at: number; id: unknown }>();
  private readonly timings = new Map<string, RequestTiming>();
  private handshake: HandshakeAnswer | undefined;
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
      this.sent.set(key, { method: message.method, at: frame.at, id: message.id });
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
    if (request.method === "initialize" && isRecord(message.result))
      this.handshake = handshakeOf(message.result, ms);
    // A 2026 server's discovery answer is its handshake; one without versions is not (a 2025
    // server that answers anything with {} is then asked initialize).
    if (
      request.method === "server/discover" &&
      isRecord(message.result) &&
      Array.isArray(message.result.supportedVersions)
    )
      this.handshake = handshakeOf(message.result, ms);
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

/** A slip, and whether it breaks other clients (an id) or only misleads them (progress). */
export interface JsonRpcSlip {
  severity: "error" | "warning";
  text: string;
}

/** The slips, the first MAX_SLIPS of each severity kept in order, and how many of each came. */
export interface JsonRpcSlips {
  kept: JsonRpcSlip[];
  errors: number;
  warnings: number;
}

/**
 * How many slips of each severity are kept: a server that slips on every message is told by its
 * first few, and a flood of warnings does not push out an error.
 */
export const MAX_SLIPS = 10;

/**
 * Slips a client may forgive and another will not: an answer whose id is the request's in another
 * type (the SDK takes `"3"` for 3; a client that compares ids strictly never sees the answer), a
 * request answered twice (the second may be taken for a later request's), progress that does not
 * increase (MCP: each notification's `progress` must be greater than the last), and progress
 * after the request's answer (MCP: it must stop once the request completes).
 */
class SlipWatch {
  private readonly found: JsonRpcSlip[] = [];
  private readonly counts = { error: 0, warning: 0 };
  /** The last progress of each token, by server. */
  private readonly lastProgress = new Map<string, number>();
  /** Each token's request (by the watch's key), and the tokens of requests answered already. */
  private readonly tokenOf = new Map<string, string>();
  private readonly finished = new Set<string>();

  idRetyped(method: string, sent: unknown, answered: unknown): void {
    this.add(
      "error",
      `${method} (id ${JSON.stringify(sent)}) was answered with the id ${JSON.stringify(answered)}, a ${typeof answered}: an answer's id must be its request's, of the same type (JSON-RPC 2.0)`,
    );
  }

  answeredAgain(method: string, id: unknown): void {
    this.add(
      "error",
      `${method} (id ${JSON.stringify(id)}) was answered a second time: a request has one answer, and a client may take the second for another request's`,
    );
  }

  /** A request went out: progress under its token starts anew (a restarted server's ids, and tokens, start over). */
  asked(server: string, request: string, params: unknown): void {
    const meta = isRecord(params) && isRecord(params._meta) ? params._meta : undefined;
    const key = tokenKey(server, meta?.progressToken);
    if (key === undefined) return;
    this.lastProgress.delete(key);
    this.finished.delete(key);
    this.tokenOf.set(request, key);
  }

  /**
   * Its request was answered: progress under its token must stop, unless the answer is a task,
   * whose progress goes on under the request's token until the task ends (MCP tasks).
   */
  answered(request: string, task: boolean): void {
    const key = this.tokenOf.get(request);
    if (key === undefined) return;
    this.tokenOf.delete(request);
    if (!task) this.finished.add(key);
  }

  progress(server: string, params: unknown): void {
    if (!isRecord(params) || typeof params.progress !== "number") return;
    const token = params.progressToken;
    const key = tokenKey(server, token);
    if (key === undefined) return;
    if (this.finished.has(key)) {
      this.add(
        "warning",
        `progress ${params.progress} came after the request was answered (token ${JSON.stringify(token)}): progress notifications must stop once it is (MCP)`,
      );
      return;
    }
    const last = this.lastProgress.get(key);
    this.lastProgress.set(key, params.progress);
    if (last !== undefined && params.progress <= last)
      this.add(
        "warning",
        `progress ${params.progress} came after ${last} for the same request (token ${JSON.stringify(token)}): each progress notification's progress must be greater than the last (MCP)`,
      );
  }

  seen(): JsonRpcSlips {
    return { kept: [...this.found], errors: this.counts.error, warnings: this.counts.warning };
  }

  private add(severity: JsonRpcSlip["severity"], text: string): void {
    this.counts[severity] += 1;
    if (this.counts[severity] <= MAX_SLIPS) this.found.push({ severity, text });
  }
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

/** A tools/call answered with a task (2025-11-25's CreateTaskResult, or 2026's `resultType: "task"`). */
function isTaskAnswer(result: unknown): boolean {
  return (
    isRecord(result) && (result.resultType === "task" || (isRecord(result.task) && !("content" in result)))
  );
}

function tokenKey(server: string, token: unknown): string | undefined {
  return typeof token === "string" || typeof token === "number"
    ? `${server}\u0000${typeof token}\u0000${token}`
    : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
