import { isTier } from "../policy/tiers.js";
import {
  isFailureClass,
  isPlainObject,
  type CallKind,
  type RecordedCall,
  type RecordedOutcome,
} from "./recorded-calls.js";

interface PendingTool {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  tier: RecordedCall["tier"];
  personApproved: boolean;
  line: number;
  startedAt: number | undefined;
  raw: RecordedOutcome | undefined;
  ended: { durationMs: number | undefined; error: RecordedOutcome | undefined } | undefined;
}

interface PendingRequest {
  kind: Exclude<CallKind, "tool">;
  server: string;
  target: string;
  arguments: Record<string, unknown>;
  at: number;
  line: number;
}

/**
 * Picks the MCP calls out of a trace's records, in the order they were sent: tool calls from the
 * session's events (with tier, the result as the server sent it, and duration), resource reads
 * and prompt gets from the wire frames (the request and its answer). Calls that never reached a
 * server (denied, rejected before sending, unknown tools) are not calls to replay. Every field
 * is checked as it is read: a trace is input like any other file.
 */
export class TraceCallCollector {
  private readonly tools = new Map<string, PendingTool>();
  private readonly order: Array<{ at: number; seq: number; call: () => RecordedCall | undefined }> = [];
  private readonly requests = new Map<string, PendingRequest>();
  private session = 0;
  private seq = 0;
  private unanswered = 0;
  private unfinished = 0;
  private wireStopped: number | undefined;

  add(record: Record<string, unknown>, line: number): void {
    switch (record.type) {
      case "session_start":
        // A new session's connections number their requests from 0 again.
        this.session += 1;
        this.unanswered += this.requests.size;
        this.requests.clear();
        return;
      case "tool_call_proposed":
        this.proposed(record.call, line);
        return;
      case "approval_decided": {
        const call = this.toolOf(record.callId);
        if (call) call.personApproved = record.by === "user" || record.by === "session";
        // The tier it was decided on (see trace-reader.ts), where the record carries one.
        if (call && isTier(record.tier)) call.tier = record.tier;
        return;
      }
      case "tool_started": {
        const call = this.toolOf(record.callId);
        if (call && call.startedAt === undefined) {
          call.startedAt = timeOf(record);
          this.queueTool(call);
        }
        return;
      }
      case "raw_result": {
        const call = this.toolOf(record.callId);
        if (!call) return;
        if (record.result !== undefined) call.raw = { kind: "result", value: record.result };
        else if (typeof record.preview === "string" && typeof record.chars === "number")
          call.raw = { kind: "preview", preview: record.preview, chars: record.chars };
        return;
      }
      case "tool_result": {
        const call = this.toolOf(record.callId);
        if (!call) return;
        const durationMs = typeof record.durationMs === "number" ? record.durationMs : undefined;
        const failure = isFailureClass(record.failure) ? record.failure : undefined;
        const message = typeof record.display === "string" ? record.display : "";
        const error: RecordedOutcome | undefined =
          record.ok === true ? undefined : { kind: "error", failure, code: undefined, message };
        call.ended = { durationMs, error };
        return;
      }
      case "wire":
        this.wire(record, line);
        return;
      case "wire_truncated":
        this.wireStopped = typeof record.limit === "number" ? record.limit : 0;
        return;
      default:
        return;
    }
  }

  /** The calls in the order they were sent, and sentences about what was left out. */
  finish(): { calls: RecordedCall[]; notes: string[] } {
    const calls = this.order
      .sort((a, b) => a.at - b.at || a.seq - b.seq)
      .flatMap((entry) => {
        const call = entry.call();
        return call ? [call] : [];
      });
    const notes: string[] = [];
    const unanswered = this.unanswered + this.requests.size;
    if (this.unfinished > 0)
      notes.push(
        `${this.unfinished} tool call(s) have no recorded result (the session stopped while they ran); they are left out.`,
      );
    if (unanswered > 0)
      notes.push(
        `${unanswered} resource read(s) or prompt get(s) have no recorded answer (too large to keep, or the session stopped first); they are left out.`,
      );
    if (this.wireStopped !== undefined)
      notes.push(
        `The trace stopped recording MCP frames after ${this.wireStopped}, so resource reads and prompt gets after that are not in it.`,
      );
    return { calls, notes };
  }

  private proposed(value: unknown, line: number): void {
    if (!isPlainObject(value) || typeof value.id !== "string") return;
    const { server, tool, arguments: args, problem } = value;
    // A call the loop could not read or match to a tool never reached a server.
    if (typeof server !== "string" || typeof tool !== "string" || !isPlainObject(args) || problem) return;
    this.tools.set(this.key(value.id), {
      server,
      tool,
      arguments: args,
      tier: isTier(value.tier) ? value.tier : undefined,
      personApproved: false,
      line,
      startedAt: undefined,
      raw: undefined,
      ended: undefined,
    });
  }

  private queueTool(call: PendingTool): void {
    this.order.push({
      at: call.startedAt ?? 0,
      seq: this.seq++,
      call: () => {
        const recorded = call.raw ?? call.ended?.error;
        if (!recorded) {
          this.unfinished += 1;
          return undefined;
        }
        return {
          kind: "tool",
          server: call.server,
          target: call.tool,
          arguments: call.arguments,
          tier: call.tier,
          ...(call.personApproved ? { personApproved: true as const } : {}),
          durationMs: call.ended?.durationMs,
          recorded,
          line: call.line,
        };
      },
    });
  }

  private wire(record: Record<string, unknown>, line: number): void {
    const { server, direction, message } = record;
    if (typeof server !== "string" || !isPlainObject(message)) return;
    const id = message.id;
    if (typeof id !== "string" && typeof id !== "number") return;
    const key = `${this.session}\u0000${server}\u0000${String(id)}`;
    const at = typeof record.at === "number" ? record.at : (timeOf(record) ?? 0);
    if (direction === "send") {
      const request = requestOf(message, server, at, line);
      if (request) this.requests.set(key, request);
      return;
    }
    const request = this.requests.get(key);
    // A server's own requests (sampling, roots) number their ids apart from the client's.
    if (direction !== "receive" || !request || message.method !== undefined) return;
    this.requests.delete(key);
    const recorded = answerOf(message);
    if (!recorded) {
      this.unanswered += 1;
      return;
    }
    this.order.push({
      at: request.at,
      seq: this.seq++,
      call: () => ({
        kind: request.kind,
        server: request.server,
        target: request.target,
        arguments: request.arguments,
        tier: undefined,
        durationMs: Math.max(0, at - request.at),
        recorded,
        line: request.line,
      }),
    });
  }

  private toolOf(callId: unknown): PendingTool | undefined {
    return typeof callId === "string" ? this.tools.get(this.key(callId)) : undefined;
  }

  /** Call ids are the model's, unique within a session at best. */
  private key(callId: string): string {
    return `${this.session}\u0000${callId}`;
  }
}

function requestOf(
  message: Record<string, unknown>,
  server: string,
  at: number,
  line: number,
): PendingRequest | undefined {
  const params = isPlainObject(message.params) ? message.params : {};
  if (message.method === "resources/read" && typeof params.uri === "string")
    return { kind: "resource", server, target: params.uri, arguments: {}, at, line };
  if (message.method === "prompts/get" && typeof params.name === "string") {
    const args = isPlainObject(params.arguments) ? params.arguments : {};
    return { kind: "prompt", server, target: params.name, arguments: args, at, line };
  }
  return undefined;
}

function answerOf(message: Record<string, unknown>): RecordedOutcome | undefined {
  if (isPlainObject(message.result)) return { kind: "result", value: message.result };
  if (isPlainObject(message.error)) {
    const { code, message: text } = message.error;
    return {
      kind: "error",
      failure: undefined,
      code: typeof code === "number" ? code : undefined,
      message: typeof text === "string" ? text : "",
    };
  }
  return undefined;
}

function timeOf(record: Record<string, unknown>): number | undefined {
  return typeof record.ts === "number" ? record.ts : undefined;
}
