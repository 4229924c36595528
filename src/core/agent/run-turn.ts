import { LlmError, McptermError, errorMessage } from "../errors.js";
import type { KbHit } from "../kb/index.js";
import { formatSourcesForModel } from "../kb/format-sources.js";
import type {
  ChatMessage,
  ContextWindow,
  ChatModel,
  ModelStreamEvent,
  ToolCallRequest,
  ToolSpec,
  Usage,
} from "../llm/types.js";
import type { ApprovalRules } from "../policy/approval-policy.js";
import type { Person } from "../person/person.js";
import type { ArgumentSecret } from "../policy/argument-secrets.js";
import { RepeatDetector } from "../policy/repeat-detector.js";
import type { ToolAllowances } from "../policy/tool-allowances.js";
import type { SchemaValidator } from "../policy/schema-validator.js";
import type { ToolSearch } from "../tool-search/index.js";
import { WindowTooSmall, type ContextKeeper } from "./context-keeper.js";
import type { AgentEvent, AttachedContext, TurnEndReason } from "./events.js";
import { parseArguments, resolveToolCall } from "./resolve-tool-call.js";
import { runToolCalls } from "./tool-calls.js";
import { keepShown, scannedCall } from "./arguments-shown.js";
import { withUniqueIds } from "./call-ids.js";
import { offerTools, type ToolOffer } from "./tool-offer.js";
import type { AgentTool, ToolHost, ToolOutcome } from "./tool-host.js";

export interface TurnOptions {
  input: string;
  /** What the message carries for the model besides `input` (attached resources, its prompt). */
  attached?: AttachedContext;
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
  person: Person;
  /** The session's validator, which keeps each tool schema compiled across steps and turns. */
  validator: SchemaValidator;
  /** Finds secrets a call's arguments would send out, before anyone decides about it. */
  scanArguments?: (args: Record<string, unknown>) => Promise<ArgumentSecret[]>;
  /** Every call id the session has given out, kept past compaction (see call-ids.ts). */
  callIds?: Set<string>;
  maxSteps: number;
  signal?: AbortSignal;
  /** Where to look up passages for the user's message before the first model step. */
  knowledge?: KnowledgeSource;
  /** Identical calls allowed in one turn before it is stopped (default 5). */
  repeatLimit?: number;
  /** Keeps each request inside the context window; without it requests go as they are. */
  context?: ContextKeeper;
  /** The most one result may put into the history; the loop sets it per step from the room left. */
  resultCharLimit?: number;
  /** The most estimated tokens of text each result may keep, measured on the text itself. */
  resultTokenLimit?: number;
  /** Selects each request's tools when there are too many to offer all; without it every tool is offered. */
  toolSearch?: ToolSearch;
}

/** Passages for a message; they go to the model, so the source returns them with secrets removed. */
export interface KnowledgeSource {
  search(query: string): KbHit[] | Promise<KbHit[]>;
}

type Done = Extract<ModelStreamEvent, { type: "done" }>;

/**
 * One user turn: model -> tools -> model ... until the model answers without tool calls, the
 * step limit is reached, the signal aborts, or the model fails. Yields every event on the way.
 */
export async function* runTurn(options: TurnOptions): AsyncGenerator<AgentEvent, void> {
  const { conversation, model, signal, turn, context } = options;
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
  const { attached } = options;
  yield {
    type: "turn_start",
    turn,
    input: options.input,
    at: new Date().toISOString(),
    ...(attached ? { attached } : {}),
  };
  const hits = (await options.knowledge?.search(options.input)) ?? [];
  if (options.knowledge) yield { type: "kb_hits", hits };
  const sources = formatSourcesForModel(hits);
  const content = [options.input, attached?.forModel, sources].filter((part) => part).join("\n\n");
  conversation.push({ role: "user", content });

  const told = new Set<string>();
  for (let step = 1; step <= options.maxSteps; step += 1) {
    const window =
      context && options.toolSearch ? (await toolSearchWindow(context, options.tools)).tokens : undefined;
    const offer = await offerTools(options.tools, options.toolSearch, {
      input: options.input,
      conversation,
      window,
    });
    for (const message of offer.warnings.filter((warning) => !told.has(warning))) {
      told.add(message);
      yield { type: "warning", message };
    }
    const { tools, selection } = offer;
    const specs = tools.map(toToolSpec);
    let partialText = "";
    let done: Done | undefined;
    let startedAt = performance.now();
    // A request the server refuses as too long is compacted and sent once more, no more.
    for (let attempt = 1; done === undefined; attempt++) {
      partialText = "";
      let sent: { tokens: number; raw: number; window: number } | undefined;
      try {
        sent = context ? yield* prepareRequest(context, conversation, specs, attempt, signal) : undefined;
        yield {
          type: "model_request",
          step,
          messageCount: conversation.length,
          tools: tools.map((t) => t.modelName),
          ...(sent ? { contextTokens: sent.tokens, contextWindow: sent.window } : {}),
          ...(selection ? { selection } : {}),
        };
        startedAt = performance.now();
        const request = {
          messages: conversation,
          tools: specs,
          ...(signal ? { signal } : {}),
          // A step that offers tools may end in calls, each checked against its schema: ajv is
          // built while the model thinks, not after it answered.
          ...(specs.length > 0 && !options.validator.isReady
            ? { onAnswering: () => void options.validator.warm() }
            : {}),
        };
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
        if (context && sent) context.observe(sent.raw, done.usage);
      } catch (error) {
        // The server refused it as too long; mcpterm's own "nothing left to drop" is final.
        const tooLong =
          error instanceof LlmError && error.kind === "context_length" && !(error instanceof WindowTooSmall);
        if (tooLong && context && attempt === 1 && !partialText && !signal?.aborted) {
          context.learnFrom(error, sent?.raw);
          continue;
        }
        if (partialText) conversation.push({ role: "assistant", content: `${partialText}\n[interrupted]` });
        if (partialText) answer = partialText;
        if (signal?.aborted || (error instanceof LlmError && error.kind === "aborted")) {
          yield end("aborted", step);
          return;
        }
        yield toErrorEvent(error);
        yield end("error", step);
        return;
      }
    }

    addUsage(usage, done.usage);
    // From here on a call is known by its id: two calls must never share one (call-ids.ts).
    done = { ...done, toolCalls: withUniqueIds(done.toolCalls, conversation, options.callIds) };
    yield {
      type: "model_step_end",
      step,
      finishReason: done.finishReason,
      usage: done.usage,
      latencyMs: Math.round(performance.now() - startedAt),
      firstTokenMs: done.firstTokenMs,
      toolCalls: done.toolCalls.length,
    };
    // A step that says nothing (the model ends its turn without words after its tools) leaves
    // the answer what it said last: `--output json` and a saved session hold what text printed.
    if (done.text.trim() !== "") answer = done.text;

    if (done.toolCalls.length === 0) {
      conversation.push({ role: "assistant", content: done.text });
      const warning = finishWarning(done.finishReason);
      if (warning) yield { type: "warning", message: warning };
      yield end("completed", step);
      return;
    }

    // Its own copies of the calls: the arguments of one found to hold a secret are withheld below.
    const asked = done.toolCalls.map((call) => ({ ...call }));
    conversation.push({ role: "assistant", content: done.text || null, toolCalls: asked });
    // Used: a call that named a tool this request offered (a saved session keeps just those calls).
    const called = new Set(done.toolCalls.map((call) => call.name));
    options.toolSearch?.noteUsed(tools.filter((tool) => called.has(tool.modelName)));
    // Every call is checked against its schema from here on, run or not.
    if (!options.validator.isReady) await options.validator.ready();
    if (step === options.maxSteps) {
      yield* keptShown(
        asked,
        answerUnrun(options, step, offer, done.toolCalls, "Not run: the turn reached its step limit."),
      );
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
      yield* keptShown(
        asked,
        answerUnrun(options, step, offer, done.toolCalls, "Not run: the same call was repeated too often."),
      );
      yield {
        type: "warning",
        message: `Stopped: the model called ${repeated.name} with the same arguments ${repeats.limit} times.`,
      };
      yield end("loop_detected", step);
      return;
    }

    const outcomes = new Map<string, ToolOutcome>();
    // Each result gets what room the window leaves, so one listing cannot crowd out the turn.
    const limit = context ? await context.resultLimit(conversation, specs, done.toolCalls.length) : undefined;
    const run = {
      ...options,
      ...(limit === undefined ? {} : { resultCharLimit: limit.chars, resultTokenLimit: limit.tokens }),
    };
    for await (const event of keptShown(asked, runToolCalls(run, step, done.toolCalls, offer, outcomes))) {
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
 * Answers calls the turn stops before running, so the history stays valid to send again, and
 * reports each as proposed and not run, so `--output json` and the transcript show them.
 */
async function* answerUnrun(
  options: TurnOptions,
  step: number,
  offer: ToolOffer,
  calls: readonly ToolCallRequest[],
  reason: string,
): AsyncGenerator<AgentEvent, void> {
  for (const request of calls) {
    const { call } = resolveToolCall(request, step, offer, options.validator);
    // Scanned as a call that runs is: what it holds is not shown either.
    yield { type: "tool_call_proposed", call: (await scannedCall(call, options.scanArguments)).call };
    yield {
      type: "tool_result",
      callId: request.id,
      ok: false,
      forModel: reason,
      display: reason,
      truncated: false,
      redactions: [],
      durationMs: 0,
      failure: undefined,
      notRun: reason,
    };
    options.conversation.push({ role: "tool", toolCallId: request.id, content: reason });
  }
}

/** `events`, the conversation's copies of the calls (`asked`) keeping what their proposals show. */
async function* keptShown(
  asked: ToolCallRequest[],
  events: AsyncIterable<AgentEvent>,
): AsyncGenerator<AgentEvent, void> {
  let proposed = 0;
  for await (const event of events) {
    if (event.type === "tool_call_proposed") keepShown(asked, proposed++, event.call);
    yield event;
  }
}

/**
 * Compacts the history if the request would not fit (always on a second attempt: the server
 * refused the first), and returns its estimated size and the window.
 */
async function* prepareRequest(
  context: ContextKeeper,
  conversation: ChatMessage[],
  specs: readonly ToolSpec[],
  attempt: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<AgentEvent, { tokens: number; raw: number; window: number }> {
  yield* context.fit(conversation, specs, {
    trigger: attempt === 1 ? "auto" : "overflow",
    ...(signal ? { signal } : {}),
  });
  const window = await context.windowForRequest();
  context.noteRequestSent();
  return {
    tokens: context.estimate(conversation, specs),
    raw: context.rawEstimate(conversation, specs),
    window: window.tokens,
  };
}

/**
 * The window tool search decides by. With servers' tools to choose from it is the endpoint's
 * answer, waited for: a default larger than the real window would offer tools the request cannot
 * hold, and a refusal is retried compacted, not re-selected. (The answer is remembered for a day,
 * so only a session that finds none waits.) With none, nothing depends on it.
 */
async function toolSearchWindow(context: ContextKeeper, tools: ToolHost): Promise<ContextWindow> {
  const serverTools = tools.list().some((tool) => !tool.builtIn && tool.withheld === undefined);
  return serverTools ? context.contextWindow() : context.windowForRequest();
}

function toToolSpec(tool: AgentTool): ToolSpec {
  return { name: tool.modelName, description: tool.modelDescription, parameters: tool.modelInputSchema };
}

function addUsage(total: Usage, step: Usage | undefined): void {
  if (!step) return;
  total.promptTokens += step.promptTokens;
  total.completionTokens += step.completionTokens;
  total.totalTokens += step.totalTokens;
  if (step.cachedTokens) total.cachedTokens = (total.cachedTokens ?? 0) + step.cachedTokens;
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
