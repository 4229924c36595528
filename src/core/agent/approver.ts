import type { ProposedToolCall } from "./events.js";
import type { AgentTool } from "./tool-host.js";

export interface ApprovalRequest {
  call: ProposedToolCall;
  tool: AgentTool;
  /** Why policy asks (e.g. the tier, or that the tool changed since it was allowed). */
  reason: string;
}

/** A person's answer about one call. */
export interface ApprovalAnswer {
  approved: boolean;
  /** Shown to the person and, for a denial, told to the model. */
  reason: string;
  /** "Always allow this tool": later calls of the same definition run unasked this session. */
  remember?: boolean;
}

/**
 * Asks the person about one call that policy said to ask about; nothing else reaches it. It must
 * answer `approved: false` when `signal` aborts.
 */
export type Approver = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;
