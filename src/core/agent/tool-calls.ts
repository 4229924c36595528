import { errorMessage } from "../errors.js";
import type { ToolCallRequest } from "../llm/types.js";
import { decideApproval, type ApprovalSource } from "../policy/approval-policy.js";
import { definitionHash } from "../policy/tool-allowances.js";
import type { ApprovalRequest } from "../person/approval-request.js";
import type { ArgumentSecret } from "../policy/argument-secrets.js";
import { PROBLEM_WITHHELD, scannedCall, type ScannedCall } from "./arguments-shown.js";
import { EventChannel } from "./event-channel.js";
import type { AgentEvent, ProposedToolCall } from "./events.js";
import { resolveToolCall } from "./resolve-tool-call.js";
import type { TurnOptions } from "./run-turn.js";
import type { AgentTool, ToolOutcome } from "./tool-host.js";
import type { ToolOffer } from "./tool-offer.js";

/** Rounds of "a definition changed since its decision, decide again" before a call is given up. */
const RECHECK_ROUNDS = 3;
/** The signal of a turn that cannot be cancelled: made once, as each AbortController costs microseconds. */
const NEVER_ABORTED = new AbortController().signal;

interface Decision {
  approved: boolean;
  by: ApprovalSource;
  reason: string;
}

interface ApprovedCall {
  call: ProposedToolCall;
  tool: AgentTool;
  args: Record<string, unknown>;
  /** What the argument scan found in them (decided on again if the tool changes). */
  secrets: readonly ArgumentSecret[];
  /** The definition the decision was made about (see definitionHash). */
  decidedOn: string;
}

/**
 * The tool phase of a model step. Proposes every call, decides each in order through the policy
 * (asking the person only when it says so; approving one never approves another) against the
 * tool's definition as its server has it then, looks once more just before anything runs (a
 * definition changed since its decision is decided again), then runs the approved calls
 * concurrently. Every call ends with an outcome, stored in `outcomes`.
 */
export async function* runToolCalls(
  options: TurnOptions,
  step: number,
  requests: readonly ToolCallRequest[],
  offer: ToolOffer,
  outcomes: Map<string, ToolOutcome>,
): AsyncGenerator<AgentEvent, void> {
  const signal = options.signal ?? NEVER_ABORTED;
  if (!options.validator.isReady) await options.validator.ready();
  const resolved = requests.map((request) => resolveToolCall(request, step, offer, options.validator));
  // Scanned before anything is shown: what the scan finds is not in the proposal either. Kept by
  // position, each with its call: a model may give two calls one id.
  const scans: ScannedCall[] = [];
  for (const { call } of resolved) {
    const scanned = await scannedCall(call, options.scanArguments);
    scans.push(scanned);
    yield { type: "tool_call_proposed", call: scanned.call };
  }

  const settle = (callId: string, outcome: ToolOutcome, durationMs = 0): AgentEvent => {
    outcomes.set(callId, outcome);
    return { type: "tool_result", callId, ...outcome, redactions: outcome.redactions ?? [], durationMs };
  };

  let approved: ApprovedCall[] = [];
  for (const [index, { call, tool, unavailable }] of resolved.entries()) {
    // The problem as the proposal told it (withheld where it could quote a secret in the arguments).
    const { secrets, call: shown } = scans[index] ?? { secrets: [], call };
    if (signal.aborted) {
      yield settle(call.id, cancelled());
      continue;
    }
    if (unavailable) {
      // Not the model's mistake: the server went down under it, which it should hear as such.
      const lost = notRun("transient", unavailable.reason);
      const { serverExited } = unavailable;
      yield settle(call.id, serverExited === undefined ? lost : { ...lost, serverExited });
      continue;
    }
    if (!tool || !call.arguments || call.problem) {
      const problem = shown.problem ?? "The call could not be read.";
      yield settle(call.id, { ...failed("invalid_args", problem), display: `invalid call: ${problem}` });
      continue;
    }
    const entry = yield* decideCall(options, call, tool, call.arguments, secrets, signal);
    if ("outcome" in entry) yield settle(call.id, entry.outcome);
    else approved.push(entry);
  }

  // The last look before anything runs: a server may have changed a tool since it was decided.
  for (let round = 0; round < RECHECK_ROUNDS && approved.length > 0; round += 1) {
    const still: ApprovedCall[] = [];
    let changed = false;
    for (const entry of approved) {
      const now = await currentDefinition(options, entry.tool);
      if (now && definitionHash(now) === entry.decidedOn) {
        still.push(entry);
        continue;
      }
      changed = true;
      if (!now) {
        yield settle(entry.call.id, gone(entry.tool));
        continue;
      }
      yield {
        type: "warning",
        message: `${now.server}/${now.name} changed its definition after the call was decided; deciding again.`,
      };
      const again = yield* decideCall(options, entry.call, now, entry.args, entry.secrets, signal);
      if ("outcome" in again) yield settle(entry.call.id, again.outcome);
      else still.push(again);
    }
    approved = still;
    if (!changed) break;
    if (round === RECHECK_ROUNDS - 1) {
      for (const entry of approved)
        yield settle(entry.call.id, notRun("permission", "the tool kept changing its definition"));
      approved = [];
    }
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
          ...(options.resultCharLimit === undefined ? {} : { resultCharLimit: options.resultCharLimit }),
          ...(options.resultTokenLimit === undefined ? {} : { resultTokenLimit: options.resultTokenLimit }),
          onProgress: (progress) =>
            channel.push({
              type: "tool_progress",
              callId: call.id,
              progress: progress.progress,
              total: progress.total,
              message: progress.message,
            }),
          onTask: (update) =>
            channel.push({
              type: "tool_task",
              callId: call.id,
              taskId: update.taskId,
              status: update.status,
              statusMessage: update.statusMessage,
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
 * Decides one call against the tool's current definition: waits for a tool change its server
 * announced, checks the arguments against the schema as it is now, then asks the policy.
 */
async function* decideCall(
  options: TurnOptions,
  call: ProposedToolCall,
  proposedTool: AgentTool,
  args: Record<string, unknown>,
  secrets: readonly ArgumentSecret[],
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, ApprovedCall | { outcome: ToolOutcome }> {
  const tool = await currentDefinition(options, proposedTool);
  if (!tool) return { outcome: gone(proposedTool) };
  if (tool !== proposedTool) {
    const invalid = options.validator.check(tool.inputSchema, args);
    if (invalid) {
      const problem =
        secrets.length > 0
          ? PROBLEM_WITHHELD
          : `The arguments do not match the tool's input schema, which its server just changed: ${invalid}. Fix them and call again.`;
      return { outcome: failed("invalid_args", problem) };
    }
  }
  const decision = yield* decide(options, call, tool, secrets, signal);
  if (!decision.approved) return { outcome: isAborted(signal) ? cancelled() : denied(decision) };
  return { call, tool, args, secrets, decidedOn: definitionHash(tool) };
}

/**
 * One call's approval: the policy decides, and only its "ask" reaches the person. An "always
 * allow" answer is remembered here, for this tool's current definition.
 */
async function* decide(
  options: TurnOptions,
  call: ProposedToolCall,
  tool: AgentTool,
  secrets: readonly ArgumentSecret[],
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, Decision> {
  const allowance = options.allowances.check(tool);
  if (allowance.state === "changed") {
    options.allowances.revoke(tool);
    yield {
      type: "warning",
      message:
        allowance.what === "server"
          ? `${tool.server}/${tool.name} was allowed when server "${tool.server}" ran another program or reached another URL (its command, arguments, folder, environment or URL changed since); the allowance is gone.`
          : `${tool.server}/${tool.name} changed its definition since it was allowed; the allowance is gone.`,
    };
  }
  const verdict = decideApproval({ tier: tool.tier, allowance, secrets }, options.approval);
  let decision: Decision;
  if (verdict.action === "ask") {
    yield { type: "approval_requested", callId: call.id, reason: verdict.reason };
    decision = await options.person
      .approveCall(approvalRequest(call, tool, verdict.reason, secrets), signal)
      .then((answer) => {
        if (answer.approved && answer.remember) options.allowances.allow(tool, answer.remember);
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
  yield {
    type: "approval_decided",
    callId: call.id,
    ...decision,
    tier: tool.tier,
    tierReason: tool.tierReason,
    argumentSecrets: [...secrets],
  };
  return decision;
}

/** The call as the person is asked about it: plain data, none of the agent's own types. */
function approvalRequest(
  call: ProposedToolCall,
  tool: AgentTool,
  reason: string,
  secrets: readonly ArgumentSecret[],
): ApprovalRequest {
  return {
    callId: call.id,
    server: tool.server,
    tool: tool.name,
    tier: tool.tier,
    tierReason: tool.tierReason,
    reason,
    arguments: call.arguments ?? {},
    ...(secrets.length > 0 ? { argumentsWithheld: true } : {}),
    notes: tool.notes,
  };
}

/** The tool as its host has it now; hosts whose tools never change give back the same one. */
async function currentDefinition(options: TurnOptions, tool: AgentTool): Promise<AgentTool | undefined> {
  const now = options.tools.current ? await options.tools.current(tool) : tool;
  // A tool its server changed into one that may not be offered is gone as far as the model goes.
  return now?.withheld === undefined ? now : undefined;
}

function gone(tool: AgentTool): ToolOutcome {
  return notRun(
    "invalid_args",
    `${tool.server}/${tool.name} is not available now (its server removed it, or did not list its changed tools in time)`,
  );
}

function cancelled(): ToolOutcome {
  return notRun("cancelled", "the user cancelled the turn");
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

function failed(failure: ToolOutcome["failure"], message: string): ToolOutcome {
  return { ok: false, forModel: message, display: message, truncated: false, failure };
}

/** Read through a function: the approval was awaited, so the signal may have fired since. */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}
