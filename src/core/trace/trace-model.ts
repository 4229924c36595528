import type { ProposedToolCall, TurnEndReason } from "../agent/events.js";
import type { KbHit } from "../kb/index.js";
import type { FinishReason, Usage } from "../llm/types.js";
import type { ApprovalSource } from "../policy/approval-policy.js";
import type { FailureClass } from "../policy/failure-class.js";
import type { InputRoundRecord } from "../mcp/input-rounds.js";
import type { ServerRequestRecord } from "../person/server-requests.js";
import type {
  ServerExitRecord,
  ServerState,
  StdoutNoiseRecord,
  SubscriptionRecord,
  CacheHitRecord,
  WireRecord,
} from "./trace-records.js";

/** A trace file read back and grouped: turn -> knowledge hits -> model steps -> tool calls -> answer. */
export interface Trace {
  file: string | undefined;
  sessions: TraceSession[];
  turns: TraceTurn[];
  wire: WireRecord[];
  /**
   * Servers' sampling and elicitation requests, in order, with what became of each, and each
   * round of a 2026 request answered with questions (input_required).
   */
  serverRequests: Array<(ServerRequestRecord | InputRoundRecord) & { ts?: number }>;
  /** Servers that exited during the session, and lines they wrote to stdout that are not JSON-RPC. */
  serverEvents: Array<ServerExitRecord | StdoutNoiseRecord | SubscriptionRecord | CacheHitRecord>;
  /** Set when the session hit its bound on wire frames, so the listing is incomplete. */
  wireTruncatedAt: number | undefined;
  /** What could not be read: a half-written last line, lines that are not JSON. */
  problems: string[];
  /** Records of types this version does not know (written by a newer mcpterm); kept out of the tree. */
  unknownRecords: number;
}

export interface TraceSession {
  sessionId: string | undefined;
  version: string | undefined;
  model: string | undefined;
  cwd: string | undefined;
  startedAt: number | undefined;
  endedAt: number | undefined;
  servers: ServerState[];
}

export interface TraceTurn {
  /** 1-based position in the file, across sessions; what `--turn` selects. */
  index: number;
  /** The turn number within its session. */
  turn: number;
  sessionId: string | undefined;
  model: string | undefined;
  input: string;
  startedAt: number | undefined;
  endedAt: number | undefined;
  durationMs: number | undefined;
  knowledge: { hits: KbHit[]; durationMs: number | undefined } | undefined;
  steps: TraceStep[];
  /** Undefined when the turn never ended (the process was killed or crashed mid-turn). */
  end:
    | {
        reason: TurnEndReason;
        answer: string;
        steps: number;
        /** Undefined when the record's usage is not one (a trace written by something else). */
        usage: Usage | undefined;
        deniedCalls: number;
      }
    | undefined;
  warnings: string[];
  /** What compaction dropped from the history during the turn, one sentence each. */
  compactions: string[];
  errors: Array<{ code: string; message: string }>;
}

export interface TraceStep {
  step: number;
  startedAt: number | undefined;
  durationMs: number | undefined;
  messageCount: number | undefined;
  toolsOffered: string[];
  /** Set when the request offered only some tools (tool search): how many there were in all. */
  toolsTotal?: number;
  /** Set with toolsTotal: how many of the servers' tools it offered (mcpterm's own left out). */
  serverToolsOffered?: number;
  retries: Array<{ attempt: number; delayMs: number; reason: string }>;
  text: string;
  finishReason: FinishReason | undefined;
  usage: Usage | undefined;
  firstTokenMs: number | undefined;
  toolCalls: TraceToolCall[];
}

/** A call as the engine proposed it (its step is the node it hangs under), plus what followed. */
export interface TraceToolCall extends Omit<ProposedToolCall, "step"> {
  proposedAt: number | undefined;
  approval:
    | { asked: boolean; approved: boolean; by: ApprovalSource; reason: string; waitMs: number | undefined }
    | undefined;
  startedAt: number | undefined;
  durationMs: number | undefined;
  progressUpdates: number;
  /** When the server ran the call as an MCP task: its id and each status it went through, in order. */
  task?: { taskId: string; statuses: string[] };
  /** The result as the server sent it, when the trace recorded it. */
  rawResult: unknown;
  result:
    | {
        ok: boolean;
        /** What a person was shown for the result (the model's copy is marked as untrusted data). */
        display: string;
        /** Its structuredContent as indented JSON, when it had one. */
        structured: string | undefined;
        /** Why it broke its tool's outputSchema, when it did. */
        outputSchemaProblem: string | undefined;
        truncated: boolean;
        redactions: string[];
        failure: FailureClass | undefined;
      }
    | undefined;
  /** What the guardrails did to this call, in words: denial, invalid arguments, redaction, truncation. */
  guardrails: string[];
}
