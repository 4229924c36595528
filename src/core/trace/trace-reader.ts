import { isTier } from "../policy/tiers.js";
import { withinNesting } from "../policy/nesting-limit.js";
import { readRegularFile } from "../files/regular-file.js";
import { describeCompaction } from "../window/describe-compaction.js";
import type { AgentEvent } from "../agent/events.js";
import type { Usage } from "../llm/types.js";
import { firstLine } from "../text/index.js";
import { serverToolsOffered } from "../tool-search/index.js";
import type { Trace, TraceSession, TraceStep, TraceToolCall, TraceTurn } from "./trace-model.js";
import type { TraceRecord } from "./trace-records.js";
import { isRecordType, shapedRecord } from "./record-shapes.js";

export async function readTrace(file: string): Promise<Trace> {
  return parseTrace(await readRegularFile(file, "utf8"), file);
}

/**
 * Groups the records of a JSONL trace. It never throws on content: a half-written last line
 * (the process was killed while writing), lines it cannot read and records without what their
 * type must hold (see record-shapes.ts) become `problems`, and record types it does not know
 * are counted and skipped.
 */
export function parseTrace(text: string, file?: string): Trace {
  const builder = new TraceBuilder(file);
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const isLast = index === lines.length - 1;
    let record: unknown;
    try {
      record = withinNesting(JSON.parse(line));
    } catch {
      builder.problem(
        isLast
          ? `the last line is incomplete (the process probably stopped while writing it)`
          : `line ${index + 1} is not JSON`,
      );
      return;
    }
    if (
      typeof record !== "object" ||
      record === null ||
      !("type" in record) ||
      typeof record.type !== "string"
    ) {
      builder.problem(`line ${index + 1} is not a trace record`);
      return;
    }
    if (!isRecordType(record.type)) {
      builder.unknown();
      return;
    }
    const shaped = shapedRecord(record as { type: TraceRecord["type"] });
    if ("problem" in shaped) {
      builder.problem(`line ${index + 1} (${record.type}) was left out: ${shaped.problem}`);
      return;
    }
    builder.add(shaped.record);
  });
  return builder.finish();
}

/** Milliseconds since the epoch of a record: `ts` from the recorder, `at` from older writers. */
function timeOf(record: object): number | undefined {
  const { ts, at } = record as { ts?: unknown; at?: unknown };
  if (typeof ts === "number" && Number.isFinite(ts)) return ts;
  if (typeof at === "number" && Number.isFinite(at)) return at;
  if (typeof at === "string") {
    const parsed = Date.parse(at);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

class TraceBuilder {
  private readonly trace: Trace;
  private session: TraceSession | undefined;
  private turn: TraceTurn | undefined;
  private calls = new Map<string, TraceToolCall>();
  private approvalAskedAt = new Map<string, number | undefined>();
  private pendingRaw = new Map<string, unknown>();
  private lastTime: number | undefined;

  constructor(file: string | undefined) {
    this.trace = {
      file,
      sessions: [],
      turns: [],
      wire: [],
      wireTruncatedAt: undefined,
      serverRequests: [],
      serverEvents: [],
      problems: [],
      unknownRecords: 0,
    };
  }

  problem(message: string): void {
    this.trace.problems.push(message);
  }

  unknown(): void {
    this.trace.unknownRecords += 1;
  }

  add(record: TraceRecord): void {
    const at = timeOf(record);
    if (at !== undefined) this.lastTime = at;
    switch (record.type) {
      case "session_start":
        this.closeTurn();
        this.session = {
          sessionId: record.sessionId,
          version: record.version,
          model: record.model,
          cwd: record.cwd,
          startedAt: at,
          endedAt: undefined,
          servers: [],
        };
        this.trace.sessions.push(this.session);
        return;
      case "servers":
        this.currentSession().servers = record.servers;
        return;
      case "session_end":
        this.closeTurn();
        this.currentSession().endedAt = at;
        return;
      case "wire":
        this.trace.wire.push(record);
        return;
      case "wire_truncated":
        this.trace.wireTruncatedAt = record.limit;
        return;
      case "sampling":
      case "elicitation":
      case "input_round":
        this.trace.serverRequests.push(record);
        return;
      case "server_exit":
      case "stdout_noise":
      case "subscription":
      case "cache_hit":
        this.trace.serverEvents.push(record);
        return;
      case "raw_result": {
        const raw = record.result ?? { preview: record.preview, chars: record.chars };
        const call = this.calls.get(record.callId);
        if (call) call.rawResult = raw;
        else this.pendingRaw.set(record.callId, raw);
        return;
      }
      case "turn_start":
      case "kb_hits":
      case "model_request":
      case "model_retry":
      case "text_delta":
      case "model_step_end":
      case "tool_call_proposed":
      case "approval_requested":
      case "approval_decided":
      case "tool_started":
      case "tool_progress":
      case "tool_task":
      case "tool_result":
      case "warning":
      case "error":
      case "turn_end":
      case "context_compacted":
        this.event(record, at);
    }
  }

  finish(): Trace {
    this.closeTurn();
    return this.trace;
  }

  private event(event: AgentEvent, at: number | undefined): void {
    switch (event.type) {
      case "turn_start":
        this.closeTurn();
        this.startTurn(event.turn, event.input, at);
        return;
      case "kb_hits": {
        const turn = this.currentTurn();
        turn.knowledge = { hits: event.hits, durationMs: elapsed(turn.startedAt, at) };
        return;
      }
      case "model_request":
        this.currentTurn().steps.push({
          ...emptyStep(event.step),
          startedAt: at,
          messageCount: event.messageCount,
          toolsOffered: event.tools,
          ...(event.selection
            ? {
                toolsTotal: event.selection.total,
                serverToolsOffered: serverToolsOffered(event.selection.offered),
              }
            : {}),
        });
        return;
      case "model_retry":
        this.stepOf(event.step).retries.push({
          attempt: event.attempt,
          delayMs: event.delayMs,
          reason: event.reason,
        });
        return;
      case "text_delta":
        this.stepOf(event.step).text += event.delta;
        return;
      case "model_step_end": {
        const step = this.stepOf(event.step);
        step.durationMs = event.latencyMs;
        step.finishReason = event.finishReason;
        step.usage = usageOf(event.usage);
        step.firstTokenMs = event.firstTokenMs;
        return;
      }
      case "tool_call_proposed": {
        const { step, ...call } = event.call;
        const proposed: TraceToolCall = {
          ...call,
          proposedAt: at,
          approval: undefined,
          startedAt: undefined,
          durationMs: undefined,
          progressUpdates: 0,
          rawResult: this.pendingRaw.get(call.id),
          result: undefined,
          guardrails: [],
        };
        this.pendingRaw.delete(call.id);
        this.stepOf(step).toolCalls.push(proposed);
        this.calls.set(call.id, proposed);
        return;
      }
      case "approval_requested":
        this.approvalAskedAt.set(event.callId, at);
        return;
      case "approval_decided": {
        const call = this.calls.get(event.callId);
        if (!call) return;
        const asked = this.approvalAskedAt.has(event.callId);
        call.approval = {
          asked,
          approved: event.approved,
          by: event.by,
          reason: event.reason,
          waitMs: asked ? elapsed(this.approvalAskedAt.get(event.callId), at) : undefined,
        };
        // The tier it was decided on, which its server may have changed since the proposal
        // (traces written before the decision carried it have only the proposal's).
        const { tier, tierReason } = event as Partial<typeof event>;
        if (typeof tier === "string" && isTier(tier)) {
          call.tier = tier;
          if (typeof tierReason === "string") call.tierReason = tierReason;
        }
        return;
      }
      case "tool_started": {
        const call = this.calls.get(event.callId);
        if (call) call.startedAt = at;
        return;
      }
      case "tool_progress": {
        const call = this.calls.get(event.callId);
        if (call) call.progressUpdates += 1;
        return;
      }
      case "tool_task": {
        const call = this.calls.get(event.callId);
        if (!call) return;
        call.task ??= { taskId: event.taskId, statuses: [] };
        const said =
          event.statusMessage === undefined ? event.status : `${event.status}: ${event.statusMessage}`;
        call.task.statuses.push(said);
        return;
      }
      case "tool_result": {
        const call = this.calls.get(event.callId);
        if (!call) return;
        call.durationMs = event.durationMs;
        call.result = {
          ok: event.ok,
          display: displayOf(event),
          structured: event.structured,
          outputSchemaProblem: event.outputSchemaProblem,
          truncated: event.truncated,
          redactions: event.redactions,
          failure: event.failure,
        };
        return;
      }
      case "warning":
        this.currentTurn().warnings.push(event.message);
        return;
      case "context_compacted":
        this.currentTurn().compactions.push(describeCompaction(event));
        return;
      case "error":
        this.currentTurn().errors.push({ code: event.code, message: event.message });
        return;
      case "turn_end": {
        const turn = this.currentTurn();
        turn.end = {
          reason: event.reason,
          // A trace written by something else may hold anything here.
          answer: typeof event.answer === "string" ? event.answer : "",
          steps: event.steps,
          usage: usageOf(event.usage),
          deniedCalls: event.deniedCalls,
        };
        turn.endedAt = at;
        this.closeTurn();
        return;
      }
    }
  }

  private currentSession(): TraceSession {
    if (!this.session) {
      this.session = {
        sessionId: undefined,
        version: undefined,
        model: undefined,
        cwd: undefined,
        startedAt: undefined,
        endedAt: undefined,
        servers: [],
      };
      this.trace.sessions.push(this.session);
    }
    return this.session;
  }

  private startTurn(number: number, input: string, at: number | undefined): TraceTurn {
    const session = this.currentSession();
    this.turn = {
      index: this.trace.turns.length + 1,
      turn: number,
      sessionId: session.sessionId,
      model: session.model,
      input,
      startedAt: at,
      endedAt: undefined,
      durationMs: undefined,
      knowledge: undefined,
      steps: [],
      end: undefined,
      warnings: [],
      compactions: [],
      errors: [],
    };
    this.trace.turns.push(this.turn);
    this.calls = new Map();
    this.approvalAskedAt = new Map();
    return this.turn;
  }

  /** Records of a turn whose start was not written still land somewhere visible. */
  private currentTurn(): TraceTurn {
    return this.turn ?? this.startTurn(0, "", this.lastTime);
  }

  private stepOf(number: number): TraceStep {
    const turn = this.currentTurn();
    const found = turn.steps.findLast((step) => step.step === number);
    if (found) return found;
    const step = emptyStep(number);
    turn.steps.push(step);
    return step;
  }

  /** Settles a turn: its duration (up to the last record when it never ended) and each call's guardrails. */
  private closeTurn(): void {
    const turn = this.turn;
    if (!turn) return;
    turn.durationMs = elapsed(turn.startedAt, turn.endedAt ?? this.lastTime);
    for (const step of turn.steps) for (const call of step.toolCalls) call.guardrails = guardrailsOf(call);
    this.turn = undefined;
  }
}

function elapsed(from: number | undefined, to: number | undefined): number | undefined {
  return from === undefined || to === undefined ? undefined : Math.max(0, to - from);
}

function guardrailsOf(call: TraceToolCall): string[] {
  const notes: string[] = [];
  if (call.problem) notes.push(`not run: ${call.problem}`);
  if (call.approval && !call.approval.approved)
    notes.push(`denied by ${call.approval.by}: ${call.approval.reason}`);
  const result = call.result;
  if (result?.failure === "invalid_args" && !call.problem)
    notes.push(`arguments rejected before running: ${firstLine(result.display, 200)}`);
  if (result && result.redactions.length > 0) {
    const rules = [...new Set(result.redactions)].join(", ");
    notes.push(`redacted ${result.redactions.length} secret(s) from the result (${rules})`);
  }
  if (result?.truncated) notes.push("result truncated to fit the model's context");
  if (result?.failure === "cancelled") notes.push("cancelled");
  if (!result) notes.push("no result recorded (the turn stopped while this call was pending)");
  return notes;
}

function emptyStep(step: number): TraceStep {
  return {
    step,
    startedAt: undefined,
    durationMs: undefined,
    messageCount: undefined,
    toolsOffered: [],
    retries: [],
    text: "",
    finishReason: undefined,
    usage: undefined,
    firstTokenMs: undefined,
    toolCalls: [],
  };
}

/** What a person was shown; traces written before display/forModel existed called it content. */
function displayOf(event: Extract<AgentEvent, { type: "tool_result" }>): string {
  const recorded = event as { display?: unknown; content?: unknown };
  if (typeof recorded.display === "string") return recorded.display;
  return typeof recorded.content === "string" ? recorded.content : "";
}

/** A turn's token counts as recorded, or undefined where a trace from elsewhere lacks them. */
function usageOf(value: unknown): Usage | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { promptTokens, completionTokens } = value as Partial<Usage>;
  return typeof promptTokens === "number" && typeof completionTokens === "number"
    ? (value as Usage)
    : undefined;
}
