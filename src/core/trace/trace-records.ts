import type { AgentEvent } from "../agent/events.js";
import type { CallToolResult, ServerSnapshot, WireFrame } from "../mcp/types.js";
import type { InputRoundRecord } from "../mcp/input-rounds.js";
import type { ServerRequestRecord } from "../person/server-requests.js";

/**
 * What a trace file holds, one JSON object a line. Every record carries `ts`, milliseconds since
 * the epoch when it was written; events keep their own fields unchanged next to it.
 */
export type TraceRecord =
  | SessionStartRecord
  | ServersRecord
  | (AgentEvent & { ts?: number })
  | WireRecord
  | WireTruncatedRecord
  | RawResultRecord
  | (ServerRequestRecord & { ts?: number })
  | (InputRoundRecord & { ts?: number })
  | ServerExitRecord
  | StdoutNoiseRecord
  | SubscriptionRecord
  | CacheHitRecord
  | SessionEndRecord;

export interface SessionStartRecord {
  type: "session_start";
  ts: number;
  sessionId: string;
  version: string;
  model: string;
  servers: string[];
  cwd: string;
}

/** The servers' state once they settled: what a developer needs when a server would not start. */
export interface ServersRecord {
  type: "servers";
  ts: number;
  servers: ServerState[];
}

export type ServerState = Pick<
  ServerSnapshot,
  | "name"
  | "status"
  | "transport"
  | "pid"
  | "url"
  | "error"
  | "serverInfo"
  | "era"
  | "protocolVersion"
  | "initializeMs"
> & { tools: number };

export type WireRecord = { type: "wire"; ts?: number } & WireFrame & {
    /** Set instead of `message` when the frame was too large to keep whole. */
    preview?: string;
    chars?: number;
  };

/** Written once, when a session reached its bound on wire frames; later frames are not kept. */
export interface WireTruncatedRecord {
  type: "wire_truncated";
  ts: number;
  limit: number;
}

/** A tool result exactly as the server sent it (redacted), before it was shaped for the model. */
export interface RawResultRecord {
  type: "raw_result";
  ts: number;
  callId: string;
  result?: CallToolResult;
  /** Set instead of `result` when the result was too large to keep whole. */
  preview?: string;
  chars?: number;
}

/** A server's process ended while the session ran: how, and the stderr lines that matter. */
export interface ServerExitRecord {
  type: "server_exit";
  ts: number;
  server: string;
  code: number | null;
  signal: string | null;
  errorLine?: string;
  location?: string;
  cause?: string;
  /** The last lines of its stderr (every one is in `--debug` output, not in the trace). */
  stderrTail: string[];
}

/** A line a stdio server wrote to stdout that is not JSON-RPC (most clients drop the server for it). */
export interface StdoutNoiseRecord {
  type: "stdout_noise";
  ts: number;
  server: string;
  line: string;
}

/**
 * A subscription's life: a stream opened (2026: with the filter the server honoured), an update to
 * a subscribed resource, a stream closed (and why), an opening that failed.
 */
export type SubscriptionRecord = { ts: number } & (
  | { type: "subscription"; kind: "opened"; server: string; era: string; subject: string; honored?: object }
  | { type: "subscription"; kind: "updated"; server: string; uri: string }
  /** Updates past the per-server limit were not recorded one by one: how many, after how many kept. */
  | { type: "subscription"; kind: "updates_left_out"; server: string; count: number; kept: number }
  | { type: "subscription"; kind: "closed"; server: string; subject: string; why: string; relisten: boolean }
  | {
      type: "subscription";
      kind: "failed";
      server: string;
      subject: string;
      reason: string;
      retrying: boolean;
    }
);

/** A list page or read answered from mcpterm's cache: the server said it could be kept (ttlMs). */
export interface CacheHitRecord {
  type: "cache_hit";
  ts: number;
  server: string;
  method: string;
  /** The page's cursor or the resource's URI; "" for a list's first page. */
  key: string;
  ttlMs: number;
  leftMs: number;
}

export interface SessionEndRecord {
  type: "session_end";
  ts: number;
}
