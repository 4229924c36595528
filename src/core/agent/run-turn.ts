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
import { decideApproval, type ApprovalRules, type ApprovalSource } from "../policy/approval-policy.js";
import { RepeatDetector } from "../policy/repeat-detector.js";
import type { ArgumentSecret } from "../policy/argument-secrets.js";
import type { ToolAllowances } from "../policy/tool-allowances.js";
import type { ArgumentValidator } from "../policy/validate-arguments.js";
import type { Approver } from "./approver.js";
import { EventChannel } from "./event-channel.js";
import type { AgentEvent, ProposedToolCall, TurnEndReason } from "./events.js";
import { parseArguments, resolveToolCall } from "./resolve-tool-call.js";
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
  /** The session's "always allow" answers; a call the person allows always is added here. */
  allowances: ToolAllowances;
  /** Asked only about calls policy says to ask about. */
  approve: Approver;
  /** The session's validator, which keeps each tool schema compiled across steps and turns. */
  validator: ArgumentValidator;
  /** Finds secrets a call's arguments would send out, before anyone decides about it. */
  scanArguments?: (args: Record<string, unknown>) => Promise<ArgumentSecret[]>;
  maxSteps: number;
  signal?: AbortSignal;
  /** Where to look up passages for the user's message before the first model step. */
  knowledge?: KnowledgeSource;
  /** Identical calls allowed in one turn before it is stopped (default 5). */
  repeatLimit?: number;
}

/** Passages for a message; they go to the model, so the source returns them with secrets removed. */
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
  const hits = options.knowledge?.search(options.input) ?? [];
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
    try {
      const request = { messages: conversation, tools: tools.map(toToolSpec), ...(signal ? { signal } : {}) };
      for await (const event of model.stream(request)) {
        if (event.type === "text") {
          partialText += event.delta;
          yield { type: "text_delta", step, delta: event.delta };
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
    } catch (error) {
      if (partialText) conversation.push({ role: "assistant", content: `${partialText}\n[interrupted]` });
      answer = partialText;
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
    answer = done.text;

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
        content: outcomes.get(call.id)?.forModel ?? "Not run.",
      });
    }
    if (signal?.aborted) {
      yield end("aborted", step);
      return;
    }
  }
}

/**
 * Proposes every call of a step, decides each in order through the policy (asking the person
 * only when it says so; approving one never approves another), then runs the approved ones
 * concurrently. Every call ends with an outcome.
 */
async function* runToolCalls(
  options: TurnOptions,
  step: number,
  requests: readonly ToolCallRequest[],
  tools: readonly AgentTool[],
  outcomes: Map<string, ToolOutcome>,
): AsyncGenerator<AgentEvent, void> {
  const signal = options.signal ?? new AbortController().signal;
  const resolved = requests.map((request) => resolveToolCall(request, step, tools, options.validator));
  for (const { call } of resolved) yield { type: "tool_call_proposed", call };

  const settle = (callId: string, outcome: ToolOutcome, durationMs: number): AgentEvent => {
    outcomes.set(callId, outcome);
    return { type: "tool_result", callId, ...outcome, redactions: outcome.redactions ?? [], durationMs };
  };
  const cancelled = (): ToolOutcome => notRun("cancelled", "the user cancelled the turn");

  const approved: Array<{ call: ProposedToolCall; tool: AgentTool; args: Record<string, unknown> }> = [];
  for (const { call, tool } of resolved) {
    if (signal.aborted) {
      yield settle(call.id, cancelled(), 0);
      continue;
    }
    if (!tool || !call.arguments || call.problem) {
      const problem = call.problem ?? "The call could not be read.";
      yield settle(call.id, { ...failed("invalid_args", problem), display: `invalid call: ${problem}` }, 0);
      continue;
    }
    const decision = yield* decide(options, call, tool, signal);
    if (!decision.approved) {
      yield settle(call.id, isAborted(signal) ? cancelled() : denied(decision), 0);
      continue;
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

interface Decision {
  approved: boolean;
  by: ApprovalSource;
  reason: string;
}

/**
 * One call's approval: the policy decides, and only its "ask" reaches the person. An "always
 * allow" answer is remembered here, for this tool's current definition.
 */
async function* decide(
  options: TurnOptions,
  call: ProposedToolCall,
  tool: AgentTool,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, Decision> {
  const allowance = options.allowances.check(tool);
  if (allowance.state === "changed") {
    options.allowances.revoke(tool);
    yield {
      type: "warning",
      message: `${tool.server}/${tool.name} changed its definition since it was allowed for this session; the allowance is gone.`,
    };
  }
  const secrets = options.scanArguments && call.arguments ? await options.scanArguments(call.arguments) : [];
  const verdict = decideApproval({ tier: tool.tier, allowance, secrets }, options.approval);
  let decision: Decision;
  if (verdict.action === "ask") {
    yield { type: "approval_requested", callId: call.id, reason: verdict.reason };
    decision = await options
      .approve({ call, tool, reason: verdict.reason }, signal)
      .then((answer) => {
        if (answer.approved && answer.remember) options.allowances.allow(tool);
        return { approved: answer.approved, by: "user" as const, reason: answer.reason };
      })
      .catch((error: unknown) => ({
        approved: false,
        by: "policy" as const,
        reason: `asking failed: ${errorMessage(error)}`,
      }));
  } else {
    decision = { approved: verdict.action === "allow", by: verdict.by, reason: verdict.reason };
  }
  yield { type: "approval_decided", callId: call.id, ...decision, argumentSecrets: secrets };
  return decision;
}

function denied(decision: Decision): ToolOutcome {
  return {
    ok: false,
    forModel: `Not run: the call was denied (${decision.by}): ${decision.reason}. Do not retry it; continue without it or ask the user.`,
    display: `denied (${decision.by}): ${decision.reason}`,
    truncated: false,
    failure: "permission",
  };
}

function notRun(failure: ToolOutcome["failure"], why: string): ToolOutcome {
  return { ok: false, forModel: `Not run: ${why}.`, display: `not run: ${why}`, truncated: false, failure };
}

/** Answers calls the turn stops before running, so the history stays valid to send again. */
function answerUnrun(conversation: ChatMessage[], calls: readonly ToolCallRequest[], reason: string): void {
  for (const call of calls) conversation.push({ role: "tool", toolCallId: call.id, content: reason });
}

function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

function failed(failure: ToolOutcome["failure"], message: string): ToolOutcome {
  return { ok: false, forModel: message, display: message, truncated: false, failure };
}

function toToolSpec(tool: AgentTool): ToolSpec {
  return { name: tool.modelName, description: tool.modelDescription, parameters: tool.inputSchema };
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
