import type { KbHit } from "../kb/index.js";
import type { FinishReason, Usage } from "../llm/types.js";
import type { ApprovalSource } from "../policy/approval-policy.js";
import type { ArgumentSecret } from "../policy/argument-secrets.js";
import type { FailureClass } from "../policy/failure-class.js";
import type { Tier } from "../policy/tiers.js";
import type { OfferReason } from "../tool-search/index.js";
import type { CompactionTrigger, Dropped } from "../window/compaction.js";

/** A tool call as the model proposed it, after the loop looked it up and parsed its arguments. */
export interface ProposedToolCall {
  /** The model's id for the call. */
  id: string;
  step: number;
  /** The function name the model used, e.g. `filesystem__write_file`. */
  modelName: string;
  /** Server and tool, when the name matched a known tool. */
  server: string | undefined;
  tool: string | undefined;
  /** Parsed arguments, or undefined when they were not a JSON object. */
  arguments: Record<string, unknown> | undefined;
  rawArguments: string;
  tier: Tier | undefined;
  tierReason: string | undefined;
  /** What mcpterm changed in the tool's definition before the model saw it (see AgentTool.notes). */
  toolNotes: string[];
  /** Why the call cannot run at all (unknown tool, bad JSON), if it cannot. */
  problem: string | undefined;
}

/** Something attached to a user's message for the model: a resource's or a file's content, or the server prompt it came from. */
export interface MessageAttachment {
  kind: "resource" | "prompt" | "file" | "stdin";
  /** The server it came from ("" for a file of the working folder or text piped in). */
  server: string;
  /** The resource's URI, the prompt's name, the file's path in the working folder, or "stdin". */
  name: string;
  /** What the model got of it, for a person: `text/markdown, 3.1 KB`, `cut to 40,000 characters`, … */
  detail: string;
}

/** What a user's message carries for the model besides its words. */
export interface AttachedContext {
  attachments: MessageAttachment[];
  /** The attached contents as the model reads them after the message, each fenced as untrusted data. */
  forModel: string;
}

/** Which tools one request offered when there were too many to offer all (see tool-search). */
export interface ToolSelectionRecord {
  /** The servers' tools that could have been offered (mcpterm's own left out). */
  total: number;
  /** Why this request selected its tools, in a sentence. */
  why: string;
  /** The tools offered (by the name the model calls), why each, and its score for the conversation. */
  offered: Array<{ name: string; reason: OfferReason; score: number }>;
  /** How many were held back. */
  heldBack: number;
}

export type TurnEndReason = "completed" | "max_steps" | "loop_detected" | "aborted" | "error";

/**
 * Everything that happens in a turn, in order. The TUI draws these, the trace stores them,
 * `--output stream-json` prints them; so every field is plain, serializable data.
 */
export type AgentEvent =
  | {
      type: "turn_start";
      turn: number;
      /** The user's words (or a server prompt's text): shown, recorded, searched in the knowledge base. */
      input: string;
      at: string;
      /** Resources attached to the message, or the prompt it came from; absent for a plain message. */
      attached?: AttachedContext;
    }
  /** Knowledge-base passages found for the user's message; they go to the model as numbered sources. */
  | { type: "kb_hits"; hits: KbHit[] }
  | {
      type: "model_request";
      step: number;
      messageCount: number;
      tools: string[];
      /** The request's size in tokens as estimated before sending, and the window it must fit. */
      contextTokens?: number;
      contextWindow?: number;
      /** Present when the request offered only some of the tools: which, and why. */
      selection?: ToolSelectionRecord;
    }
  /** The history was made shorter to fit the context window; `dropped` says what went. */
  | {
      type: "context_compacted";
      trigger: CompactionTrigger;
      window: number;
      beforeTokens: number;
      afterTokens: number;
      dropped: Dropped[];
      focus?: string;
      /** The summary put in place of the older turns, when one was (redacted before it is recorded). */
      summary?: string;
      /** What the summary request cost, when the model wrote one. */
      usage?: Usage;
    }
  | { type: "model_retry"; step: number; attempt: number; delayMs: number; reason: string }
  | { type: "text_delta"; step: number; delta: string }
  | {
      type: "model_step_end";
      step: number;
      finishReason: FinishReason;
      usage: Usage | undefined;
      latencyMs: number;
      firstTokenMs: number | undefined;
      toolCalls: number;
    }
  | { type: "tool_call_proposed"; call: ProposedToolCall }
  /** Policy said to ask a person; only then is this emitted. */
  | { type: "approval_requested"; callId: string; reason: string }
  | {
      type: "approval_decided";
      callId: string;
      approved: boolean;
      by: ApprovalSource;
      reason: string;
      /**
       * The tier the decision was made on, and why the tool has it: the proposal's, unless its
       * server changed the tool before it ran and it was decided again (tool-calls.ts).
       */
      tier: Tier;
      tierReason: string;
      /** Secrets found in the arguments (path and kind, never the value); they made policy ask or deny. */
      argumentSecrets: ArgumentSecret[];
    }
  | { type: "tool_started"; callId: string }
  | {
      type: "tool_progress";
      callId: string;
      progress: number;
      total: number | undefined;
      message: string | undefined;
    }
  /** The server runs the call as an MCP task: created, then each change of its status or message. */
  | {
      type: "tool_task";
      callId: string;
      taskId: string;
      status: "working" | "input_required" | "completed" | "failed" | "cancelled";
      /** The server's words on where the task is (untrusted: redacted here, sanitized where shown). */
      statusMessage: string | undefined;
    }
  | {
      type: "tool_result";
      callId: string;
      ok: boolean;
      /** The tool message the model receives for this call. */
      forModel: string;
      /** What a person is shown for it: the result's content, or why it failed or did not run. */
      display: string;
      /** The result's structuredContent as indented JSON, when it has one (redacted, capped). */
      structured?: string;
      /** Why the result breaks its tool's outputSchema, in one sentence, when it does. */
      outputSchemaProblem?: string;
      /** The images, sounds and binary resources in the result, described (`image/png, 12.3 KB`). */
      attachments?: string[];
      truncated: boolean;
      /** Secrets removed from the content before anyone saw it, by rule. */
      redactions: string[];
      durationMs: number;
      failure: FailureClass | undefined;
      /** Set when mcpterm never ran the call because the turn stopped first (its step limit, a loop). */
      notRun?: string;
      /** Set when the call was lost because its server's process ended: how, and the stderr line that says why. */
      serverExited?: string;
    }
  | { type: "warning"; message: string }
  | { type: "error"; code: string; message: string; exitCode: number }
  | {
      type: "turn_end";
      turn: number;
      reason: TurnEndReason;
      answer: string;
      steps: number;
      usage: Usage;
      deniedCalls: number;
    };

export type AgentEventType = AgentEvent["type"];
