import type { ApprovalSource } from "../policy/approval-policy.js";
import type { ProposedToolCall } from "./events.js";
import type { AgentTool } from "./tool-host.js";

export interface ApprovalRequest {
  call: ProposedToolCall;
  tool: AgentTool;
}

export interface ApprovalAnswer {
  approved: boolean;
  by: ApprovalSource;
  /** Shown to the person and, for a denial, told to the model. */
  reason: string;
}

/**
 * Asks whoever decides (a person in the TUI, the flags in one-shot mode, a test) about one call
 * that policy did not allow by itself. It must answer `approved: false` when `signal` aborts.
 */
export type Approver = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;
