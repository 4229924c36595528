import { LlmError, McptermError, errorMessage } from "../errors.js";
import { formatSourcesForModel, type KbHit } from "../kb/index.js";
import type {
  ChatMessage,
  ChatModel,
  ModelStreamEvent,
  ToolCallRequest,
  ToolSpec,
  Usage,
} from "../llm/types.js";
import { decideApproval, type ApprovalRules } from "../policy/approval-policy.js";
import { ArgumentValidator } from "../policy/validate-arguments.js";
import type { Approver } from "./approver.js";
import { EventChannel } from "./event-channel.js";
import type { AgentEvent, ProposedToolCall, TurnEndReason } from "./events.js";
import { parseArguments, resolveToolCall } from "./resolve-tool-call.js";
import { redactDeep } from "../policy/redact-deep.js";
import { RepeatDetector } from "../policy/repeat-detector.js";
import { StreamRedactor } from "../policy/stream-redactor.js";
import { BUILT_IN_SERVER } from "./tool-host.js";
import type { AgentTool, ToolHost, ToolOutcome } from "./tool-host.js";

export interface TurnOptions {
  input: string;
  /** 1-based number of this turn in the session. */
  turn: number;
  /** The session's history. The turn appends to it, and leaves it valid to send again whatever happens. */
  conversation: ChatMessage[];
  model: ChatModel;
  tools: ToolHost;
  approval: ApprovalRules;
  approve: Approver;
  maxSteps: number;
  signal?: AbortSignal;
  /** Where to look up passages for the user's message before the first model step. */
  knowledge?: KnowledgeSource;
  /** Identical calls allowed in one turn before it is stopped (default 5). */
  repeatLimit?: number;
  /**
   * Removes secrets from what the turn reports (streamed text, the answer, knowledge passages).
   * The model's own history keeps what the model said.
   */
  redactText?: (text: string) => string;
}

export interface KnowledgeSource {
  search(query: string): KbHit[];
}

type Done = Extract<ModelStreamEvent, { type: "done" }>;

/**
 * One user turn: model -> tools -> model ... until the model answers without tool calls, the
 * step limit is reached, the signal aborts, or the model fails. Yields every event on the way.
 */
export async function* runTurn(options: TurnOptions): AsyncGenerator<AgentEvent, void> {
  const { conversation, model, signal, turn } = options;
  const usage: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  let deniedCalls = 0;
  let answer = "";
  const end = (reason: TurnEndReason, steps: number): AgentEvent => ({
    type: "turn_end",
    turn,
    reason,
    answer,
    steps,
    usage,
    deniedCalls,
  });

  const repeats = new RepeatDetector(options.repeatLimit);
  yield { type: "turn_start", turn, input: options.input, at: new Date().toISOString() };
  const redactText = options.redactText ?? ((text: string) => text);
  const hits = redactDeep(options.knowledge?.search(options.input) ?? [], redactText);
  if (options.knowledge) yield { type: "kb_hits", hits };
  const sources = formatSourcesForModel(hits);
  conversation.push({ role: "user", content: sources ? `${options.input}\n\n${sources}` : options.input });

  for (let step = 1; step <= options.maxSteps; step += 1) {
    const tools = options.tools.list();
    yield {
      type: "model_request",
      step,
      messageCount: conversation.length,
      tools: tools.map((t) => t.modelName),
    };

    const startedAt = performance.now();
    let partialText = "";
    let done: Done | undefined;
    const shown = new StreamRedactor(redactText);
    try {
      const request = { messages: conversation, tools: tools.map(toToolSpec), ...(signal ? { signal } : {}) };
      for await (const event of model.stream(request)) {
        if (event.type === "text") {
          partialText += event.delta;
          const delta = shown.push(event.delta);
          if (delta) yield { type: "text_delta", step, delta };
        } else if (event.type === "retry") {
          yield {
            type: "model_retry",
            step,
            attempt: event.attempt,
            delayMs: event.delayMs,
            reason: event.reason,
          };
        } else {
          done = event;
        }
      }
      if (!done) throw new LlmError("protocol", "The model stream ended without a final chunk.");
      const rest = shown.flush();
      if (rest) yield { type: "text_delta", step, delta: rest };
    } catch (error) {
      const rest = shown.flush();
      if (rest) yield { type: "text_delta", step, delta: rest };
      if (partialText) conversation.push({ role: "assistant", content: `${partialText}\n[interrupted]` });
      answer = redactText(partialText);
      if (signal?.aborted || (error instanceof LlmError && error.kind === "aborted")) {
        yield end("aborted", step);
        return;
      }
      yield toErrorEvent(error);
      yield end("error", step);
      return;
    }

    addUsage(usage, done.usage);
    yield {
      type: "model_step_end",
      step,
      finishReason: done.finishReason,
      usage: done.usage,
      latencyMs: Math.round(performance.now() - startedAt),
      firstTokenMs: done.firstTokenMs,
      toolCalls: done.toolCalls.length,
    };
    answer = redactText(done.text);

    if (done.toolCalls.length === 0) {
      conversation.push({ role: "assistant", content: done.text });
      const warning = finishWarning(done.finishReason);
      if (warning) yield { type: "warning", message: warning };
      yield end("completed", step);
      return;
    }

    conversation.push({ role: "assistant", content: done.text || null, toolCalls: done.toolCalls });
    if (step === options.maxSteps) {
      answerUnrun(conversation, done.toolCalls, "Not run: the turn reached its step limit.");
      yield {
        type: "warning",
        message: `Stopped after ${options.maxSteps} model steps with tool calls still pending; raise --max-steps to let it go further.`,
      };
      yield end("max_steps", step);
      return;
    }

    const repeated = done.toolCalls.find(
      (call) => repeats.record(call.name, parseArguments(call.arguments)) >= repeats.limit,
    );
    if (repeated) {
      answerUnrun(conversation, done.toolCalls, "Not run: the same call was repeated too often.");
      yield {
        type: "warning",
        message: `Stopped: the model called ${repeated.name} with the same arguments ${repeats.limit} times.`,
      };
      yield end("loop_detected", step);
      return;
    }

    const outcomes = new Map<string, ToolOutcome>();
    for await (const event of runToolCalls(options, step, done.toolCalls, tools, outcomes)) {
      if (event.type === "tool_result" && event.failure === "permission") deniedCalls += 1;
      yield event;
    }
    for (const call of done.toolCalls) {
      conversation.push({
        role: "tool",
        toolCallId: call.id,
        content: toolMessage(call, outcomes.get(call.id), tools),
      });
    }
    if (signal?.aborted) {
      yield end("aborted", step);
      return;
    }
  }
}

/**
 * Proposes every call of a step, asks about each in order (approving one never approves
 * another), then runs the approved ones concurrently. Every call ends with an outcome.
 */
async function* runToolCalls(
  options: TurnOptions,
  step: number,
  requests: readonly ToolCallRequest[],
  tools: readonly AgentTool[],
  outcomes: Map<string, ToolOutcome>,
): AsyncGenerator<AgentEvent, void> {
  const signal = options.signal ?? new AbortController().signal;
  const validator = new ArgumentValidator();
  const resolved = requests.map((request) => resolveToolCall(request, step, tools, validator));
  for (const { call } of resolved) yield { type: "tool_call_proposed", call };

  const settle = (callId: string, outcome: ToolOutcome, durationMs: number): AgentEvent => {
    outcomes.set(callId, outcome);
    return { type: "tool_result", callId, ...outcome, redactions: outcome.redactions ?? [], durationMs };
  };

  const approved: Array<{ call: ProposedToolCall; tool: AgentTool; args: Record<string, unknown> }> = [];
  for (const { call, tool } of resolved) {
    if (signal.aborted) {
      yield settle(call.id, failed("cancelled", "Not run: the user cancelled the turn."), 0);
      continue;
    }
    if (!tool || !call.arguments || call.problem) {
      yield settle(call.id, failed("invalid_args", call.problem ?? "The call could not be read."), 0);
      continue;
    }
    const verdict = decideApproval(tool.tier, options.approval);
    if (verdict.action === "allow") {
      yield {
        type: "approval_decided",
        callId: call.id,
        approved: true,
        by: verdict.by,
        reason: verdict.reason,
      };
    } else {
      yield { type: "approval_requested", callId: call.id };
      const answer = await options
        .approve({ call, tool }, signal)
        .catch((error: unknown) => ({ approved: false, by: "policy" as const, reason: errorMessage(error) }));
      yield { type: "approval_decided", callId: call.id, ...answer };
      // Read through a function: the approval was awaited, so the signal may have fired since.
      if (!answer.approved && isAborted(signal)) {
        yield settle(call.id, failed("cancelled", "Not run: the user cancelled the turn."), 0);
        continue;
      }
      if (!answer.approved) {
        const message = `Not run: the call was denied (${answer.by}): ${answer.reason}. Do not retry it; continue without it or ask the user.`;
        yield settle(call.id, failed("permission", message), 0);
        continue;
      }
    }
    approved.push({ call, tool, args: call.arguments });
  }

  const channel = new EventChannel<AgentEvent>();
  const running = approved.map(async ({ call, tool, args }) => {
    channel.push({ type: "tool_started", callId: call.id });
    const startedAt = performance.now();
    // Through a promise, so a host that throws instead of rejecting still ends in an outcome.
    const outcome = await Promise.resolve()
      .then(() =>
        options.tools.call(tool, args, {
          callId: call.id,
          signal,
          onProgress: (progress) =>
            channel.push({
              type: "tool_progress",
              callId: call.id,
              progress: progress.progress,
              total: progress.total,
              message: progress.message,
            }),
        }),
      )
      .catch((error: unknown) => failed("transient", `The call failed: ${errorMessage(error)}`));
    channel.push(settle(call.id, outcome, Math.round(performance.now() - startedAt)));
  });
  void Promise.all(running).finally(() => channel.close());
  yield* channel;
}

/**
 * What the model reads for a call. Output of an MCP tool is marked as untrusted data, so text
 * inside it that looks like instructions is read as content, not obeyed.
 */
function toolMessage(
  call: ToolCallRequest,
  outcome: ToolOutcome | undefined,
  tools: readonly AgentTool[],
): string {
  if (!outcome) return "Not run.";
  const tool = tools.find((candidate) => candidate.modelName === call.name);
  if (!outcome.ok || !tool || tool.server === BUILT_IN_SERVER) return outcome.content;
  const label = `${tool.server}/${tool.name}`;
  const body = outcome.content.replaceAll("</tool_output", "<\\/tool_output");
  return `<tool_output tool="${label}" trust="untrusted">\n${body}\n</tool_output>`;
}

/** Answers calls the turn stops before running, so the history stays valid to send again. */
function answerUnrun(conversation: ChatMessage[], calls: readonly ToolCallRequest[], reason: string): void {
  for (const call of calls) conversation.push({ role: "tool", toolCallId: call.id, content: reason });
}

function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

function failed(failure: ToolOutcome["failure"], content: string): ToolOutcome {
  return { ok: false, content, truncated: false, failure };
}

function toToolSpec(tool: AgentTool): ToolSpec {
  return { name: tool.modelName, description: tool.description, parameters: tool.inputSchema };
}

function addUsage(total: Usage, step: Usage | undefined): void {
  if (!step) return;
  total.promptTokens += step.promptTokens;
  total.completionTokens += step.completionTokens;
  total.totalTokens += step.totalTokens;
}

function finishWarning(reason: Done["finishReason"]): string | undefined {
  switch (reason) {
    case "length":
      return "The model stopped at its output token limit; the answer may be cut off.";
    case "content_filter":
      return "The model's content filter stopped the answer.";
    case "stop":
    case "tool_calls":
    case "unknown":
      return undefined;
  }
}

function toErrorEvent(error: unknown): AgentEvent {
  if (error instanceof McptermError) {
    return { type: "error", code: error.code, message: error.message, exitCode: error.exitCode };
  }
  return { type: "error", code: "internal", message: errorMessage(error), exitCode: 1 };
}
