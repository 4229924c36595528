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

export interface SessionEndRecord {
  type: "session_end";
  ts: number;
}
