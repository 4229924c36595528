import { splitEvidence } from "../core/agent/answer-evidence.js";
import type {
  AgentEvent,
  MessageAttachment,
  ProposedToolCall,
  ToolSelectionRecord,
  TurnEndReason,
} from "../core/agent/events.js";
import type { FinishReason, Usage } from "../core/llm/types.js";
import type { ApprovalSource } from "../core/policy/approval-policy.js";
import type { FailureClass } from "../core/policy/failure-class.js";
import { describeCompaction } from "../core/window/describe-compaction.js";

export interface ToolCallSummary {
  id: string;
  step: number;
  name: string;
  server: string | undefined;
  tool: string | undefined;
  tier: string | undefined;
  tierReason: string | undefined;
  arguments: unknown;
  approved: boolean | undefined;
  approvedBy: ApprovalSource | undefined;
  ok: boolean | undefined;
  failure: FailureClass | undefined;
  result: string | undefined;
  /** The result's structuredContent as indented JSON (redacted, capped), when it had one. */
  structuredContent: string | undefined;
  /** Why the result breaks its tool's outputSchema, in one sentence, when it does. */
  outputSchemaProblem: string | undefined;
  /** The images, sounds and binary resources in the result, described (`image/png, 12.3 KB`). */
  attachments: string[] | undefined;
  truncated: boolean;
  durationMs: number | undefined;
  /** Why mcpterm did not run a call the model proposed (the step limit, a loop), when it did not. */
  notRun: string | undefined;
  /** Set when the call was lost because its server's process ended: how, and the stderr line that says why. */
  serverExited?: string;
}

export interface ModelStepSummary {
  step: number;
  /** What the model said in this step (the final step's text is also the answer). */
  text: string;
  finishReason: FinishReason;
  toolCalls: number;
  usage: Usage | undefined;
  latencyMs: number;
  firstTokenMs: number | undefined;
  /** When the step's request offered only some tools: which, why each, and how many were held back. */
  toolSelection?: ToolSelectionRecord;
}

/** The one JSON object `--output json` prints. */
export interface RunSummary {
  answer: string;
  /** What was attached to the message (files, resources, the prompt it came from), when anything was. */
  attached?: MessageAttachment[];
  reason: TurnEndReason | undefined;
  steps: number;
  usage: Usage;
  modelSteps: ModelStepSummary[];
  knowledge: Array<{ path: string; startLine: number; endLine: number; score: number }>;
  toolCalls: ToolCallSummary[];
  warnings: string[];
  /** One sentence per compaction of the history during the run (see describeCompaction). */
  compactions: string[];
  error: { code: string; message: string } | undefined;
  /** The answer's closing "Confirmed" part, when the model wrote one (see answer-evidence.ts). */
  confirmed?: string;
  /** The answer's closing "Inferred" part (to verify), when the model wrote one. */
  inferred?: string;
}

/** Folds the event stream into the summary; pure, so it is tested without a model. */
export function summarize(summary: RunSummary, event: AgentEvent): RunSummary {
  switch (event.type) {
    case "tool_call_proposed":
      return { ...summary, toolCalls: [...summary.toolCalls, fromProposal(event.call)] };
    case "approval_decided":
      return updateCall(summary, event.callId, {
        approved: event.approved,
        approvedBy: event.by,
        tier: event.tier,
        tierReason: event.tierReason,
      });
    case "tool_result":
      return updateCall(summary, event.callId, {
        ok: event.ok,
        failure: event.failure,
        result: event.display,
        structuredContent: event.structured,
        outputSchemaProblem: event.outputSchemaProblem,
        attachments: event.attachments,
        truncated: event.truncated,
        durationMs: event.durationMs,
        notRun: event.notRun,
        ...(event.serverExited === undefined ? {} : { serverExited: event.serverExited }),
      });
    case "warning":
      return { ...summary, warnings: [...summary.warnings, event.message] };
    case "error":
      return { ...summary, error: { code: event.code, message: event.message } };
    case "turn_end": {
      const split = splitEvidence(event.answer);
      // Confirmed only when something in the turn could confirm it: a model can write the heading over a guess.
      const backed =
        summary.knowledge.length > 0 ||
        summary.attached !== undefined ||
        summary.toolCalls.some((call) => call.ok === true);
      const confirmed = backed ? split.confirmed : undefined;
      const { inferred } = split;
      return {
        ...summary,
        answer: event.answer,
        reason: event.reason,
        steps: event.steps,
        usage: event.usage,
        ...(confirmed === undefined ? {} : { confirmed }),
        ...(inferred === undefined ? {} : { inferred }),
      };
    }
    case "model_request": {
      const step = emptyStep(event.step);
      return {
        ...summary,
        modelSteps: [
          ...summary.modelSteps,
          event.selection ? { ...step, toolSelection: event.selection } : step,
        ],
      };
    }
    case "text_delta":
      return updateStep(summary, event.step, (step) => ({ ...step, text: step.text + event.delta }));
    case "model_step_end":
      return updateStep(summary, event.step, (step) => ({
        ...step,
        finishReason: event.finishReason,
        toolCalls: event.toolCalls,
        usage: event.usage,
        latencyMs: event.latencyMs,
        firstTokenMs: event.firstTokenMs,
      }));
    case "kb_hits":
      return {
        ...summary,
        knowledge: event.hits.map(({ path, startLine, endLine, score }) => ({
          path,
          startLine,
          endLine,
          score,
        })),
      };
    case "context_compacted":
      return { ...summary, compactions: [...summary.compactions, describeCompaction(event)] };
    case "turn_start":
      return event.attached && event.attached.attachments.length > 0
        ? { ...summary, attached: event.attached.attachments }
        : summary;
    case "model_retry":
    case "approval_requested":
    case "tool_started":
    case "tool_progress":
    case "tool_task":
      return summary;
  }
}

export function emptySummary(): RunSummary {
  return {
    answer: "",
    reason: undefined,
    steps: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    modelSteps: [],
    knowledge: [],
    toolCalls: [],
    warnings: [],
    compactions: [],
    error: undefined,
  };
}

function emptyStep(step: number): ModelStepSummary {
  return {
    step,
    text: "",
    finishReason: "unknown",
    toolCalls: 0,
    usage: undefined,
    latencyMs: 0,
    firstTokenMs: undefined,
  };
}

function updateStep(
  summary: RunSummary,
  step: number,
  change: (current: ModelStepSummary) => ModelStepSummary,
): RunSummary {
  return {
    ...summary,
    modelSteps: summary.modelSteps.map((entry) => (entry.step === step ? change(entry) : entry)),
  };
}

function fromProposal(call: ProposedToolCall): ToolCallSummary {
  return {
    id: call.id,
    step: call.step,
    name: call.modelName,
    server: call.server,
    tool: call.tool,
    tier: call.tier,
    tierReason: call.tierReason,
    arguments: call.arguments ?? call.rawArguments,
    approved: undefined,
    approvedBy: undefined,
    ok: undefined,
    failure: undefined,
    result: undefined,
    structuredContent: undefined,
    outputSchemaProblem: undefined,
    attachments: undefined,
    truncated: false,
    durationMs: undefined,
    notRun: undefined,
  };
}

function updateCall(summary: RunSummary, id: string, change: Partial<ToolCallSummary>): RunSummary {
  return {
    ...summary,
    toolCalls: summary.toolCalls.map((call) => (call.id === id ? { ...call, ...change } : call)),
  };
}
