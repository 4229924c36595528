import { ProtocolError, type CallToolResult, type Client, type Tool } from "@modelcontextprotocol/client";
import { isInputRoundNotice } from "./input-rounds.js";
import { CallLimits } from "./call-limits.js";
import { sendToolCall } from "./tool-call-request.js";
import type { QuestionHold } from "./question-hold.js";
import { classifyRequestError, HEADER_MISMATCH, ToolCallError } from "./tool-call-error.js";
import type { TaskDriver } from "./task-driver.js";
import { TASK_ERROR, type TaskError } from "./task-run.js";
import { errorMessage } from "../errors.js";
import type { CallOptions } from "./types.js";

/** The SDK's per-request timeout sits this far past the hard limit, so mcpterm's limits decide. */
const SDK_TIMEOUT_SLACK_MS = 1000;

/** What one server lends its tool calls. */
export interface ToolCallHost {
  client: Client;
  server: string;
  timeoutMs: number;
  maxCallMs: number;
  questions: QuestionHold;
  /** The tool as listed now, if it is. */
  definition(tool: string): Tool | undefined;
  /** Whether its requests carry HTTP headers (2026 over HTTP): the arguments some tools mark go in them too. */
  sendsHeaders(): boolean;
  /** Lists the server's tools again: it said a header its definitions ask for was missing. */
  relist(): Promise<void>;
  /** Errors the caller handles itself (an expired 2025 session), thrown as they are. */
  passThrough(error: unknown): boolean;
  /** Runs the call as a task if the server answers with one (see TaskDriver). */
  tasks?: TaskDriver;
  /** Whether to ask a 2025 server for a task: the tool requires one (execution.taskSupport). */
  asksTask?: boolean;
  /** What the server did that may explain a timeout, as a clause (see LostAnswers.explainSilence). */
  explainSilence?: () => string | undefined;
}

/**
 * One tool call within its limits (see CallLimits). It goes out with the definition mcpterm listed
 * (sendToolCall): on a 2026 HTTP connection the SDK's callTool sends the arguments the tool marks
 * with `x-mcp-header` as headers too (SEP-2243), and a server that finds one missing (-32020,
 * its definitions changed since they were listed) gets the tools listed again and the call once
 * more. The outputSchema is left out of the definition: mcpterm keeps a result whose
 * structuredContent breaks it, and flags it (output-schema.ts), where the SDK would throw it away.
 */
export async function callToolWithin(
  host: ToolCallHost,
  tool: string,
  args: Record<string, unknown>,
  options: CallOptions,
  meta: { _meta?: Record<string, unknown> } = {},
): Promise<CallToolResult> {
  const timeoutMs = options.timeoutMs ?? host.timeoutMs;
  const limits = new CallLimits({
    server: host.server,
    timeoutMs,
    maxCallMs: options.maxCall?.ms ?? host.maxCallMs,
    maxCallSetting: options.maxCall?.setting,
    questions: host.questions,
    signal: options.signal,
    silenceExplained: () => host.explainSilence?.(),
  });
  const { onProgress, onTask } = options;
  // Every poll the server answers about the task is a sign of life (a status may stay the same
  // for longer than timeoutMs while the task works), and the task ends within the call's limits.
  const task = host.tasks?.begin({
    tool,
    askTask: host.asksTask === true,
    signal: limits.signal,
    timeoutMs,
    maxCallMs: limits.maxCallMs,
    onUpdate: (update) => {
      limits.showedLife();
      onTask?.(update);
    },
    alive: () => limits.showedLife(),
  });
  const params = task ? { ...meta, _meta: { ...meta._meta, ...task.meta } } : meta;
  const send = (): Promise<CallToolResult> =>
    sendToolCall(
      host.client,
      {
        params: { name: tool, arguments: args, ...params },
        options: {
          signal: limits.signal,
          // The SDK's own timeout never fires first: the silence limit and the hard limit decide.
          timeout: limits.maxCallMs + SDK_TIMEOUT_SLACK_MS,
          ...(onProgress
            ? {
                onprogress: (progress: Parameters<typeof onProgress>[0]) => {
                  limits.showedLife();
                  if (!isInputRoundNotice(progress)) onProgress(progress);
                },
              }
            : {}),
          ...withoutOutputSchema(host.definition(tool)),
        },
      },
      { sendsHeaders: host.sendsHeaders() },
    );
  try {
    try {
      return await send();
    } catch (error) {
      // A call answered with a task ran: whatever its failure says, it is never sent again. Nor is
      // one over a connection that sends no headers: none of its headers can be missing.
      if (
        !(error instanceof ProtocolError) ||
        error.code !== HEADER_MISMATCH ||
        !host.sendsHeaders() ||
        limits.signal.aborted ||
        task?.taskId !== undefined
      )
        throw error;
      await host.relist();
      return await send();
    }
  } catch (error) {
    const stopped = limits.stoppedBy(error);
    if (stopped && task?.taskId !== undefined) {
      // The call says its task was cancelled once tasks/cancel went out (bounded by its timeout).
      await task.followed;
      throw new ToolCallError(stopped.failure, `${stopped.message}; its task ${task.taskId} was cancelled`, {
        cause: error,
        retryable: false,
        timedOut: stopped.timedOut,
      });
    }
    if (stopped) throw stopped;
    if (task?.serverCancelled !== undefined)
      throw new ToolCallError(
        "business",
        `server "${host.server}" cancelled the task${task.serverCancelled ? `: ${task.serverCancelled}` : ""}`,
        { cause: error, retryable: false },
      );
    if (task?.taskId !== undefined) throw taskFailed(host.server, task.taskId, error);
    if (host.passThrough(error)) throw error;
    throw classifyRequestError(error, { server: host.server, timeoutMs });
  } finally {
    task?.end();
    limits.dispose();
  }
}

/**
 * How a call the server answered with a task failed: the task's own error, read from what the
 * driver handed the SDK, never classified by its code (the call ran; it is not sent again).
 */
function taskFailed(server: string, taskId: string, error: unknown): ToolCallError {
  const data =
    error instanceof ProtocolError ? (error.data as Record<string, unknown> | undefined) : undefined;
  const taskError = data?.[TASK_ERROR] as TaskError | undefined;
  const message = taskError
    ? taskError.abandoned
      ? `mcpterm gave up on task ${taskId} of server "${server}": ${taskError.message}`
      : `task ${taskId} of server "${server}" failed: ${taskError.message}${taskError.madeUp ? "" : ` (code ${taskError.code})`}`
    : `task ${taskId} of server "${server}" failed: ${errorMessage(error)}`;
  return new ToolCallError("business", message, { cause: error, retryable: false });
}

function withoutOutputSchema(definition: Tool | undefined): { toolDefinition?: Tool } {
  if (!definition) return {};
  const { outputSchema: _outputSchema, ...rest } = definition;
  return { toolDefinition: rest };
}
