import { createHash } from "node:crypto";
import type { Trace, TraceStep, TraceToolCall, TraceTurn } from "./trace-model.js";

/** OTLP/JSON attribute value (only the kinds this export uses). */
type AnyValue =
  | { stringValue: string }
  | { intValue: string }
  | { boolValue: boolean }
  | { arrayValue: { values: AnyValue[] } };

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 3 client (OTLP SpanKind). */
  kind: 1 | 3;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Array<{ key: string; value: AnyValue }>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: 0 | 1 | 2; message?: string };
}

export interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: AnyValue }> };
    scopeSpans: Array<{ scope: { name: string; version: string }; spans: OtlpSpan[] }>;
  }>;
}

/**
 * The trace as OTLP/JSON spans with the OpenTelemetry GenAI semantic conventions: one trace per
 * turn (`invoke_agent`), a `chat` span per model step and an `execute_tool` span per tool call,
 * children of their step. Ids are derived from the session and turn, so exporting twice gives
 * the same ids and a collector deduplicates instead of doubling.
 */
/**
 * `contents`: whether the prompt, the answer and each call's arguments and result go into the
 * spans. A file next to the trace may hold them (the trace does); a collector gets them only when
 * content capture is on, as live export decides (see telemetry-settings.ts).
 */
export interface OtlpOptions {
  contents: boolean;
}

export function toOtlpJson(trace: Trace, options: OtlpOptions = { contents: true }): OtlpExport {
  const session = trace.sessions.at(-1);
  const version = session?.version ?? "unknown";
  const spans = trace.turns.flatMap((turn) => turnSpans(turn, trace.file ?? "", options));
  return {
    resourceSpans: [
      {
        resource: { attributes: [attr("service.name", "mcpterm"), attr("service.version", version)] },
        scopeSpans: [{ scope: { name: "mcpterm", version }, spans }],
      },
    ],
  };
}

function turnSpans(turn: TraceTurn, file: string, options: OtlpOptions): OtlpSpan[] {
  const seed = `${turn.sessionId ?? file}\u0000${turn.index}`;
  const traceId = hexId(seed, 32);
  const turnId = hexId(`${seed}\u0000turn`, 16);
  const turnStart = turn.startedAt ?? 0;
  const turnEnd = turnStart + (turn.durationMs ?? 0);
  const spans: OtlpSpan[] = [
    {
      traceId,
      spanId: turnId,
      name: "invoke_agent mcpterm",
      kind: 1,
      startTimeUnixNano: nanos(turnStart),
      endTimeUnixNano: nanos(turnEnd),
      attributes: [
        attr("gen_ai.operation.name", "invoke_agent"),
        attr("gen_ai.agent.name", "mcpterm"),
        ...(turn.model ? [attr("gen_ai.request.model", turn.model)] : []),
        ...(turn.sessionId ? [attr("gen_ai.conversation.id", turn.sessionId)] : []),
        attr("mcpterm.turn", turn.turn),
        ...(options.contents ? [attr("mcpterm.turn.input", turn.input)] : []),
        attr("mcpterm.turn.end_reason", turn.end?.reason ?? "unfinished"),
        ...(turn.end
          ? [
              ...(turn.end.usage
                ? [
                    attr("gen_ai.usage.input_tokens", turn.end.usage.promptTokens),
                    attr("gen_ai.usage.output_tokens", turn.end.usage.completionTokens),
                  ]
                : []),
              ...(options.contents ? [attr("mcpterm.turn.answer", turn.end.answer)] : []),
              attr("mcpterm.turn.denied_calls", turn.end.deniedCalls),
            ]
          : []),
        ...(turn.knowledge ? [attr("mcpterm.kb.hits", turn.knowledge.hits.length)] : []),
      ],
      status:
        turn.end?.reason === "completed"
          ? { code: 1 }
          : { code: 2, message: turn.end?.reason ?? "unfinished" },
    },
  ];
  turn.steps.forEach((step, position) => {
    const stepId = hexId(`${seed}\u0000step\u0000${position}`, 16);
    spans.push(stepSpan(step, turn, { traceId, spanId: stepId, parentSpanId: turnId }, turnEnd));
    step.toolCalls.forEach((call, index) => {
      const spanId = hexId(`${seed}\u0000call\u0000${position}\u0000${index}\u0000${call.id}`, 16);
      spans.push(callSpan(call, { traceId, spanId, parentSpanId: stepId }, step, turnEnd, options));
    });
  });
  return spans;
}

interface Ids {
  traceId: string;
  spanId: string;
  parentSpanId: string;
}

function stepSpan(step: TraceStep, turn: TraceTurn, ids: Ids, fallbackEnd: number): OtlpSpan {
  const start = step.startedAt ?? fallbackEnd;
  const end = step.durationMs === undefined ? fallbackEnd : start + step.durationMs;
  return {
    ...ids,
    name: turn.model ? `chat ${turn.model}` : "chat",
    kind: 3,
    startTimeUnixNano: nanos(start),
    endTimeUnixNano: nanos(Math.max(start, end)),
    attributes: [
      attr("gen_ai.operation.name", "chat"),
      ...(turn.model ? [attr("gen_ai.request.model", turn.model)] : []),
      ...(step.usage
        ? [
            attr("gen_ai.usage.input_tokens", step.usage.promptTokens),
            attr("gen_ai.usage.output_tokens", step.usage.completionTokens),
          ]
        : []),
      ...(step.finishReason ? [attr("gen_ai.response.finish_reasons", [step.finishReason])] : []),
      attr("mcpterm.step", step.step),
      ...(step.messageCount === undefined ? [] : [attr("mcpterm.model.message_count", step.messageCount)]),
      attr("mcpterm.model.tools_offered", step.toolsOffered),
      ...(step.firstTokenMs === undefined ? [] : [attr("mcpterm.model.first_token_ms", step.firstTokenMs)]),
      attr("mcpterm.model.retries", step.retries.length),
    ],
    status: step.finishReason ? { code: 0 } : { code: 2, message: "the model step did not finish" },
  };
}

function callSpan(
  call: TraceToolCall,
  ids: Ids,
  step: TraceStep,
  fallbackEnd: number,
  options: OtlpOptions,
): OtlpSpan {
  const start = call.startedAt ?? call.proposedAt ?? step.startedAt ?? fallbackEnd;
  const end = call.durationMs === undefined ? fallbackEnd : start + call.durationMs;
  const toolName = call.tool ?? call.modelName;
  const result = call.result;
  return {
    ...ids,
    name: `execute_tool ${toolName}`,
    kind: 1,
    startTimeUnixNano: nanos(start),
    endTimeUnixNano: nanos(Math.max(start, end)),
    attributes: [
      attr("gen_ai.operation.name", "execute_tool"),
      attr("gen_ai.tool.name", toolName),
      attr("gen_ai.tool.call.id", call.id),
      attr("gen_ai.tool.type", "function"),
      ...(options.contents
        ? [
            attr(
              "gen_ai.tool.call.arguments",
              call.arguments ? JSON.stringify(call.arguments) : call.rawArguments,
            ),
            ...(result ? [attr("gen_ai.tool.call.result", result.display)] : []),
          ]
        : []),
      attr("mcp.method.name", "tools/call"),
      ...(call.server ? [attr("mcpterm.tool.server", call.server)] : []),
      ...(call.tier ? [attr("mcpterm.tool.tier", call.tier)] : []),
      ...(call.tierReason ? [attr("mcpterm.tool.tier_reason", call.tierReason)] : []),
      ...(call.approval
        ? [
            attr("mcpterm.approval.approved", call.approval.approved),
            attr("mcpterm.approval.by", call.approval.by),
            attr("mcpterm.approval.reason", call.approval.reason),
          ]
        : []),
      ...(result?.failure
        ? [attr("error.type", result.failure), attr("mcpterm.tool.failure", result.failure)]
        : []),
      ...(result ? [attr("mcpterm.tool.truncated", result.truncated)] : []),
      ...(result && result.redactions.length > 0 ? [attr("mcpterm.tool.redactions", result.redactions)] : []),
      ...(call.guardrails.length > 0 ? [attr("mcpterm.guardrails", call.guardrails)] : []),
    ],
    status: !result
      ? { code: 2, message: "no result recorded" }
      : result.ok
        ? { code: 1 }
        : { code: 2, message: result.failure ?? "error" },
  };
}

function attr(key: string, value: string | number | boolean | string[]): { key: string; value: AnyValue } {
  return { key, value: anyValue(value) };
}

function anyValue(value: string | number | boolean | string[]): AnyValue {
  if (Array.isArray(value)) return { arrayValue: { values: value.map((item) => ({ stringValue: item })) } };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") return { intValue: String(Math.round(value)) };
  return { stringValue: value };
}

/** Unix milliseconds as OTLP's nanosecond string (too large for a JSON number). */
function nanos(ms: number): string {
  // The reader lets no infinite time through; a NaN made of one must not stop the export.
  return Number.isFinite(ms) ? (BigInt(Math.round(ms)) * 1_000_000n).toString() : "0";
}

/** A stable, non-zero hex id of `length` digits (32 for trace ids, 16 for span ids). */
function hexId(seed: string, length: 32 | 16): string {
  const hex = createHash("sha256").update(seed).digest("hex").slice(0, length);
  return /^0+$/.test(hex) ? `1${hex.slice(1)}` : hex;
}
