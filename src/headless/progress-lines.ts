import type { AgentEvent, ProposedToolCall } from "../core/agent/events.js";
import { describeArgumentSecrets } from "../core/policy/argument-secrets.js";
import { sanitizeForTerminal, sanitizeOneLine } from "../core/policy/sanitize-terminal.js";
import { firstLine, summarizeArguments } from "../core/text/index.js";
import { serverToolsOffered } from "../core/tool-search/index.js";
import { describeCompaction } from "../core/window/describe-compaction.js";

const ARGUMENT_SUMMARY_WIDTH = 80;
/**
 * A failed call's line holds its whole reason: a crash's sentence ("… (connection lost: the
 * server process exited (code 3): <its stderr line>)") runs past 200 characters, and its end is
 * the part that says why. Server texts in it are already bounded (readableServerMessage).
 */
const FAILURE_WIDTH = 600;
/** A progress or task status message, which a server may send many of. */
const STATUS_WIDTH = 200;

/**
 * The stderr line one-shot mode prints for an event, if any: one per tool call when it ends
 * (with a second under it when the result breaks its tool's outputSchema), one per denial (naming the flag that would allow it), retries and warnings,
 * and, when the turn's first request selected its tools, how many it offered.
 */
export function progressLine(
  event: AgentEvent,
  calls: ReadonlyMap<string, ProposedToolCall>,
): string | undefined {
  switch (event.type) {
    case "tool_result": {
      const call = calls.get(event.callId);
      if (!call || event.failure === "permission") return undefined;
      if (event.notRun !== undefined)
        return `· ${callLabel(call)} ${sanitizeForTerminal(event.notRun.toLowerCase())}`;
      const args = summarizeArguments(call.arguments, call.rawArguments, ARGUMENT_SUMMARY_WIDTH);
      const head = `${callLabel(call)} ${sanitizeForTerminal(args)}`;
      if (event.ok) {
        const line = `✓ ${head} (${event.durationMs} ms${event.truncated ? ", result truncated" : ""})`;
        const problem = event.outputSchemaProblem;
        return problem === undefined ? line : `${line}\n  ⚠ ${sanitizeForTerminal(problem)}`;
      }
      return `✗ ${head} failed (${event.failure ?? "error"}): ${firstLine(sanitizeForTerminal(event.display), FAILURE_WIDTH)}`;
    }
    case "approval_decided": {
      const call = calls.get(event.callId);
      if (event.approved || !call) return undefined;
      if (event.argumentSecrets.length > 0) {
        return `✗ ${callLabel(call)} was not run: its arguments hold a secret (${sanitizeForTerminal(describeArgumentSecrets(event.argumentSecrets))}); rerun with --allow-secret-arguments if it is meant to go out`;
      }
      // The tier it was decided on: its server may have changed the tool since it was proposed.
      const { tier } = event;
      return `✗ ${callLabel(call)} was not run: ${tier} calls need approval; rerun with --approve ${tier} (or --yes) to allow it`;
    }
    case "tool_task": {
      // A long call the server runs as a task: each status on stderr, so the wait shows it is alive.
      const call = calls.get(event.callId);
      return call ? `· ${callLabel(call)} ${taskStatusLine(event, (text) => text)}` : undefined;
    }
    case "kb_hits":
      if (event.hits.length === 0) return undefined;
      return `knowledge: ${event.hits.map((hit) => `[${event.hits.indexOf(hit) + 1}] ${sanitizeForTerminal(hit.path)}:${hit.startLine}-${hit.endLine}`).join(", ")}`;
    case "model_retry":
      return `model request failed (${event.reason}); retrying in ${(event.delayMs / 1000).toFixed(1)} s (attempt ${event.attempt})`;
    case "warning":
      return `warning: ${sanitizeOneLine(event.message)}`;
    case "context_compacted":
      return `context: ${describeCompaction(event)}`;
    case "model_request": {
      // Once a turn, at its first request: later steps change only with what the model did in it.
      const selection = event.step === 1 ? event.selection : undefined;
      if (!selection) return undefined;
      const offered = serverToolsOffered(selection.offered);
      return `tools: ${offered} of ${selection.total} offered to the model, and search_tools to find the rest (${selection.why})`;
    }
    case "turn_start":
    case "text_delta":
    case "model_step_end":
    case "tool_call_proposed":
    case "approval_requested":
    case "tool_started":
    case "tool_progress":
    case "error":
    case "turn_end":
      return undefined;
  }
}

export function callLabel(call: ProposedToolCall): string {
  return sanitizeForTerminal(call.server && call.tool ? `${call.server}/${call.tool}` : call.modelName);
}

/** `progress 3/10 (30 %): indexing` — one progress notification of a direct call, for stderr. */
export function callProgressLine(
  progress: { progress: number; total?: number | undefined; message?: string | undefined },
  redact: (text: string) => string,
): string {
  const { total } = progress;
  const amount =
    total === undefined || total <= 0
      ? `${progress.progress}`
      : `${progress.progress}/${total} (${Math.round((progress.progress / total) * 100)} %)`;
  const message = progress.message
    ? `: ${firstLine(sanitizeForTerminal(redact(progress.message)), STATUS_WIDTH)}`
    : "";
  return `progress ${amount}${message}`;
}

/**
 * One line for a tool call its server runs as a task, each time the task changes: `task job-1:
 * working: step 2 of 5`. The id and message are the server's: redacted and sanitized.
 */
export function taskStatusLine(
  update: { taskId: string; status: string; statusMessage?: string | undefined },
  redact: (text: string) => string,
): string {
  const message = update.statusMessage
    ? `: ${firstLine(sanitizeForTerminal(redact(update.statusMessage)), STATUS_WIDTH)}`
    : "";
  return `task ${firstLine(sanitizeForTerminal(redact(update.taskId)), STATUS_WIDTH)}: ${update.status}${message}`;
}
