import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import type { AgentEvent } from "../agent/events.js";
import type { OutgoingRequest, ServerSnapshot, WireFrame } from "../mcp/types.js";
import type { SessionTelemetry, TelemetryContext } from "./index.js";
import { McpRequestSpans } from "./mcp-request-spans.js";
import { startExportPipeline } from "./otel-pipeline.js";
import { contextFrom } from "./span-context.js";

/** Longest captured model answer per step; more is cut (the span limit would cut it anyway). */
const CAPTURED_TEXT_LIMIT = 16_384;
/** Progress notices kept as events on one tool call's span; a chatty server is not replayed whole. */
const PROGRESS_EVENTS_LIMIT = 20;

type Event<T extends AgentEvent["type"]> = Extract<AgentEvent, { type: T }>;

interface OpenCall {
  span: Span;
  context: Context;
  server: string | undefined;
  tool: string | undefined;
  /** The proposed arguments as JSON, to tell apart two calls of one tool that run side by side. */
  args: string;
  /** Whether its tools/call request has been sent (it takes the first such request that matches). */
  sent: boolean;
  progressEvents: number;
}

interface OpenTurn {
  span: Span;
  context: Context;
  startedAt: number;
  chat: { span: Span; text: string } | undefined;
  calls: Map<string, OpenCall>;
}

/** Starts the pipeline and returns the session's telemetry (see SessionTelemetry). */
export function startSessionTelemetry(context: TelemetryContext): SessionTelemetry {
  const pipeline = startExportPipeline(context.settings, { warn: context.warn, redact: context.redact });
  return new LiveSessionTelemetry(context, pipeline.tracer, () => pipeline.flush());
}

/**
 * Engine events and wire frames as spans, by the GenAI semantic conventions: each turn a trace
 * (`invoke_agent mcpterm`) holding its knowledge-base retrieval, a `chat` span per model step,
 * an `execute_tool` span per tool call (approval included) and, below those, a CLIENT span per
 * MCP request. Events come from the session already redacted; contents (messages, arguments,
 * results) go into spans only when captureContent is on.
 */
class LiveSessionTelemetry implements SessionTelemetry {
  private turn: OpenTurn | undefined;
  private startup: Span | undefined;
  private readonly root: Context;
  private readonly requests: McpRequestSpans;
  private closed = false;

  constructor(
    private readonly context: TelemetryContext,
    private readonly tracer: Tracer,
    private readonly flush: () => Promise<void>,
  ) {
    const { parent } = context.settings;
    this.root = parent === undefined ? ROOT_CONTEXT : contextFrom(parent);
    this.requests = new McpRequestSpans({
      tracer,
      parentFor: (request) => this.parentFor(request),
      endpoint: context.endpoint,
      redact: context.redact,
    });
  }

  get requestMeta(): (request: OutgoingRequest) => Record<string, string> | undefined {
    return this.requests.requestMeta;
  }

  readonly write = (record: object): void => {
    if (this.closed) return;
    const event = record as AgentEvent;
    switch (event.type) {
      case "turn_start":
        this.turnStart(event);
        break;
      case "kb_hits":
        this.knowledge(event);
        break;
      case "model_request":
        this.chatStart(event);
        break;
      case "model_retry":
        this.turn?.chat?.span.addEvent("retry", {
          attempt: event.attempt,
          delay_ms: event.delayMs,
          reason: this.context.redact(event.reason),
        });
        break;
      case "text_delta":
        if (
          this.context.settings.captureContent &&
          this.turn?.chat &&
          this.turn.chat.text.length < CAPTURED_TEXT_LIMIT
        )
          this.turn.chat.text += event.delta;
        break;
      case "model_step_end":
        this.chatEnd(event);
        break;
      case "tool_call_proposed":
        this.callStart(event);
        break;
      case "approval_requested":
        this.call(event.callId)?.span.addEvent("approval_requested", { reason: event.reason });
        break;
      case "approval_decided":
        this.approval(event);
        break;
      case "tool_started":
        this.call(event.callId)?.span.addEvent("started");
        break;
      case "tool_progress":
        this.progress(event);
        break;
      case "tool_task":
        // Each status of a call the server ran as a task, on the call's span (bounded by the statuses).
        this.call(event.callId)?.span.addEvent("task", {
          "mcp.task.id": event.taskId,
          "mcp.task.status": event.status,
        });
        break;
      case "tool_result":
        this.callEnd(event);
        break;
      case "warning":
        this.turn?.span.addEvent("warning", { message: event.message });
        break;
      case "error":
        this.error(event);
        break;
      case "turn_end":
        this.turnEnd(event);
        break;
      case "context_compacted":
        this.turn?.span.addEvent("context_compacted", {
          trigger: event.trigger,
          "tokens.before": event.beforeTokens,
          "tokens.after": event.afterTokens,
        });
        break;
    }
  };

  wire(frame: WireFrame): void {
    if (!this.closed) this.requests.wire(frame);
  }

  serversStarting(): void {
    if (this.closed || this.startup) return;
    this.startup = this.tracer.startSpan(
      "start_servers mcpterm",
      { kind: SpanKind.INTERNAL, attributes: { "gen_ai.conversation.id": this.context.sessionId } },
      this.root,
    );
  }

  serversSettled(servers: readonly ServerSnapshot[]): void {
    const span = this.startup;
    if (span === undefined) return;
    this.startup = undefined;
    const failed = servers.filter((server) => server.status === "failed");
    span.setAttributes({
      "mcpterm.servers.connected": servers.filter((server) => server.status === "connected").length,
      "mcpterm.servers.failed": failed.length,
    });
    for (const server of failed)
      span.addEvent("server_failed", {
        "mcpterm.mcp.server": server.name,
        message: this.context.redact(server.error ?? "failed"),
      });
    if (failed.length > 0) span.setStatus({ code: SpanStatusCode.ERROR, message: `${failed.length} failed` });
    span.end();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.turn) this.endTurn("the session ended before the turn did");
    this.requests.endAll("the session ended before the server answered");
    this.serversSettled([]);
    this.closed = true;
    await this.flush();
  }

  /** Where a request's span belongs: its tool call, else the turn, else start-up, else its own trace. */
  private parentFor(request: OutgoingRequest): Context {
    if (request.method === "tools/call") {
      const call = this.callFor(request);
      if (call) return call.context;
    }
    if (this.turn) return this.turn.context;
    if (this.startup) return trace.setSpan(this.root, this.startup);
    return this.root;
  }

  /**
   * The open call a tools/call request was sent for: the same server and tool, not yet sent, the
   * same arguments where two such calls are open at once.
   */
  private callFor(request: OutgoingRequest): OpenCall | undefined {
    const name = request.params?.name;
    const candidates = [...(this.turn?.calls.values() ?? [])].filter(
      (call) => !call.sent && call.server === request.server && call.tool === name,
    );
    const args = JSON.stringify(request.params?.arguments ?? {});
    const call = candidates.find((candidate) => candidate.args === args) ?? candidates[0];
    if (call) call.sent = true;
    return call;
  }

  private turnStart(event: Event<"turn_start">): void {
    if (this.turn) this.endTurn("a new turn began");
    const span = this.tracer.startSpan(
      "invoke_agent mcpterm",
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.name": "mcpterm",
          "gen_ai.conversation.id": this.context.sessionId,
          "gen_ai.request.model": this.context.model(),
          "mcpterm.turn": event.turn,
          ...(event.attached ? { "mcpterm.turn.attachments": event.attached.attachments.length } : {}),
          ...(this.context.settings.captureContent
            ? { "gen_ai.input.messages": messages("user", this.context.redact(event.input)) }
            : {}),
        },
      },
      this.root,
    );
    this.turn = {
      span,
      context: trace.setSpan(this.root, span),
      startedAt: Date.now(),
      chat: undefined,
      calls: new Map(),
    };
  }

  /** The retrieval ran between the turn's start and its hits (run-turn searches before step 1). */
  private knowledge(event: Event<"kb_hits">): void {
    const turn = this.turn;
    if (turn === undefined) return;
    const span = this.tracer.startSpan(
      "retrieval knowledge_base",
      {
        kind: SpanKind.INTERNAL,
        startTime: turn.startedAt,
        attributes: {
          "gen_ai.operation.name": "retrieval",
          "gen_ai.data_source.id": "knowledge_base",
          "mcpterm.kb.hits": event.hits.length,
          ...(this.context.settings.captureContent
            ? {
                "mcpterm.kb.sources": event.hits.map((hit) => `${hit.path}:${hit.startLine}-${hit.endLine}`),
              }
            : {}),
        },
      },
      turn.context,
    );
    span.end();
  }

  private chatStart(event: Event<"model_request">): void {
    const turn = this.turn;
    if (turn === undefined) return;
    if (turn.chat) this.endChat(turn, "a new model request began");
    const model = this.context.model();
    const span = this.tracer.startSpan(
      `chat ${model}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": model,
          "gen_ai.conversation.id": this.context.sessionId,
          "mcpterm.step": event.step,
          "mcpterm.model.message_count": event.messageCount,
          "mcpterm.model.tools_offered": event.tools.length,
          ...(event.contextTokens === undefined
            ? {}
            : { "mcpterm.model.context_tokens": event.contextTokens }),
          ...modelEndpointAttributes(this.context.modelEndpoint, this.context.redact),
        },
      },
      turn.context,
    );
    turn.chat = { span, text: "" };
  }

  private chatEnd(event: Event<"model_step_end">): void {
    const turn = this.turn;
    const chat = turn?.chat;
    if (turn === undefined || chat === undefined) return;
    chat.span.setAttributes({
      "gen_ai.response.finish_reasons": [event.finishReason],
      ...(event.usage
        ? {
            "gen_ai.usage.input_tokens": event.usage.promptTokens,
            "gen_ai.usage.output_tokens": event.usage.completionTokens,
            ...(event.usage.cachedTokens === undefined
              ? {}
              : { "gen_ai.usage.cache_read.input_tokens": event.usage.cachedTokens }),
          }
        : {}),
      ...(event.firstTokenMs === undefined ? {} : { "mcpterm.model.first_token_ms": event.firstTokenMs }),
      "mcpterm.model.tool_calls": event.toolCalls,
      ...(this.context.settings.captureContent && chat.text !== ""
        ? {
            "gen_ai.output.messages": messages(
              "assistant",
              this.context.redact(chat.text),
              event.finishReason,
            ),
          }
        : {}),
    });
    chat.span.end();
    turn.chat = undefined;
  }

  private callStart(event: Event<"tool_call_proposed">): void {
    const turn = this.turn;
    if (turn === undefined) return;
    const { call } = event;
    const name = call.tool ?? call.modelName;
    const span = this.tracer.startSpan(
      `execute_tool ${name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": name,
          "gen_ai.tool.call.id": call.id,
          "gen_ai.tool.type": "function",
          "mcpterm.step": call.step,
          ...(call.server === undefined ? {} : { "mcpterm.tool.server": call.server }),
          ...(call.tier === undefined ? {} : { "mcpterm.tool.tier": call.tier }),
          ...(call.tierReason === undefined ? {} : { "mcpterm.tool.tier_reason": call.tierReason }),
          // Content: a problem can quote the arguments (a JSON parser's error quotes its input).
          // Without capture, the call's error.type says what kind of failure it was.
          ...(this.context.settings.captureContent
            ? {
                "gen_ai.tool.call.arguments": this.context.redact(call.rawArguments),
                ...(call.problem === undefined
                  ? {}
                  : { "mcpterm.tool.problem": this.context.redact(call.problem) }),
              }
            : {}),
        },
      },
      turn.context,
    );
    turn.calls.set(call.id, {
      span,
      context: trace.setSpan(turn.context, span),
      server: call.server,
      tool: call.tool,
      args: JSON.stringify(call.arguments ?? {}),
      sent: false,
      progressEvents: 0,
    });
  }

  private approval(event: Event<"approval_decided">): void {
    const call = this.call(event.callId);
    if (call === undefined) return;
    call.span.setAttributes({
      // The tier that decided, which a server's change to the tool may have made another.
      "mcpterm.tool.tier": event.tier,
      "mcpterm.tool.tier_reason": event.tierReason,
      "mcpterm.approval.approved": event.approved,
      "mcpterm.approval.by": event.by,
      "mcpterm.approval.reason": event.reason,
      ...(event.argumentSecrets.length > 0
        ? { "mcpterm.approval.argument_secrets": event.argumentSecrets.length }
        : {}),
    });
    call.span.addEvent("approval_decided", { approved: event.approved, by: event.by });
  }

  private progress(event: Event<"tool_progress">): void {
    const call = this.call(event.callId);
    if (call === undefined || call.progressEvents >= PROGRESS_EVENTS_LIMIT) return;
    call.progressEvents += 1;
    call.span.addEvent("progress", {
      progress: event.progress,
      ...(event.total === undefined ? {} : { total: event.total }),
    });
  }

  private callEnd(event: Event<"tool_result">): void {
    const call = this.call(event.callId);
    if (call === undefined) return;
    this.turn?.calls.delete(event.callId);
    call.span.setAttributes({
      "mcpterm.tool.duration_ms": event.durationMs,
      "mcpterm.tool.truncated": event.truncated,
      ...(event.redactions.length > 0 ? { "mcpterm.tool.redactions": event.redactions } : {}),
      ...(event.notRun === undefined ? {} : { "mcpterm.tool.not_run": event.notRun }),
      ...(event.failure === undefined ? {} : { "error.type": event.failure }),
      ...(this.context.settings.captureContent
        ? { "gen_ai.tool.call.result": this.context.redact(event.forModel) }
        : {}),
    });
    call.span.setStatus(
      event.ok
        ? { code: SpanStatusCode.OK }
        : { code: SpanStatusCode.ERROR, message: event.failure ?? "error" },
    );
    call.span.end();
  }

  private error(event: Event<"error">): void {
    const turn = this.turn;
    if (turn === undefined) return;
    const status = { code: SpanStatusCode.ERROR, message: this.context.redact(event.message).slice(0, 500) };
    if (turn.chat) {
      turn.chat.span.setAttribute("error.type", event.code);
      turn.chat.span.setStatus(status);
    }
    turn.span.setAttribute("error.type", event.code);
    turn.span.setStatus(status);
  }

  private turnEnd(event: Event<"turn_end">): void {
    const turn = this.turn;
    if (turn === undefined) return;
    turn.span.setAttributes({
      "mcpterm.turn.end_reason": event.reason,
      "mcpterm.turn.steps": event.steps,
      "mcpterm.turn.denied_calls": event.deniedCalls,
      "gen_ai.usage.input_tokens": event.usage.promptTokens,
      "gen_ai.usage.output_tokens": event.usage.completionTokens,
      ...(this.context.settings.captureContent
        ? { "gen_ai.output.messages": messages("assistant", this.context.redact(event.answer)) }
        : {}),
    });
    // An error already set the status with its message; aborted, loops and step limits are outcomes.
    if (event.reason === "completed") turn.span.setStatus({ code: SpanStatusCode.OK });
    this.endTurn(`the turn ended (${event.reason}) first`);
  }

  /** Ends the turn and whatever of it is still open (a step or call cut off). */
  private endTurn(reason: string): void {
    const turn = this.turn;
    if (turn === undefined) return;
    this.turn = undefined;
    if (turn.chat) this.endChat(turn, reason);
    for (const call of turn.calls.values()) {
      call.span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
      call.span.end();
    }
    turn.span.end();
  }

  private endChat(turn: OpenTurn, reason: string): void {
    turn.chat?.span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
    turn.chat?.span.end();
    turn.chat = undefined;
  }

  private call(id: string): OpenCall | undefined {
    return this.turn?.calls.get(id);
  }
}

/** Messages in the GenAI conventions' JSON form: one message of one text part. */
function messages(role: "user" | "assistant", text: string, finishReason?: string): string {
  return JSON.stringify([
    {
      role,
      parts: [{ type: "text", content: text }],
      ...(finishReason ? { finish_reason: finishReason } : {}),
    },
  ]);
}

/** `server.address` and `server.port` of the model endpoint (never its path or credentials). */
function modelEndpointAttributes(
  endpoint: string | undefined,
  redact: (text: string) => string,
): Record<string, string | number> {
  if (endpoint === undefined) return {};
  try {
    const url = new URL(endpoint);
    const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
    return { "server.address": redact(url.hostname), "server.port": port };
  } catch {
    return {};
  }
}
