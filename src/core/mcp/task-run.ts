import { setTimeout as pause } from "node:timers/promises";
import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  UnauthorizedError,
  type Client,
} from "@modelcontextprotocol/client";
import { z } from "zod";
import type { ProtocolEra } from "./protocol-era.js";
import { newQuestions, type TaskInputRequest } from "./task-input.js";
import { isFinal, readTask, type TaskState } from "./task-state.js";

/**
 * The tasks methods go through the SDK with a schema of mcpterm's own: that is the only way the
 * SDK sends them (it has no task runtime), and it still puts on what each era asks of a request
 * (the 2026 `_meta` envelope and HTTP headers, auth, its ids).
 */
const AnyResult = z.looseObject({});
/** The SDK's own limit on tasks/result sits past the call's hard limit: mcpterm's limits decide. */
const SDK_TIMEOUT_SLACK_MS = 1000;
/** tasks/cancel is sent once the call is over: it gets this long, at most. */
const CANCEL_MS = 5000;
/** JSON-RPC's internal error: the neutral code for what a task's end hands the SDK. */
export const INTERNAL_ERROR = -32603;
/** Why mcpterm stopped waiting on a 2025 tasks/result, as the server reads it. */
const RESULT_WAIT_STOPPED = "the client stopped waiting for the task's result; tasks/cancel follows";
/** What a task mcpterm stopped says in its panel and in /tasks, once tasks/cancel went out. */
export const CANCEL_SENT = "tasks/cancel sent";
/**
 * Each answered poll is a sign of life, so a poll goes out at least this often within the
 * silence limit (timeoutMs): however slow a pace the server asks, the limit cannot run out
 * between two polls the server answers.
 */
const POLLS_PER_SILENCE_LIMIT = 3;
/** The most questions (distinct inputRequests keys) one task may ask. */
const MAX_QUESTIONS_PER_TASK = 10;
const MIN_POLL_MS = 50;
/**
 * Requests about a 2026 task (polls, and tasks/update with the person's answers) that may fail
 * in a row before mcpterm gives the task up. One that got no answer (a proxy's 503 or 429, a
 * dropped connection) says nothing of the task, which goes on at the server; the next poll waits
 * twice as long as the one before. Failed requests are no sign of life, so the silence limit
 * still ends a call whose polls never get through.
 */
const MAX_FAILED_POLLS = 3;

export type JsonRpcErrorObject = { code: number; message: string; data?: unknown };

/**
 * The key under which the error handed to the SDK for a failed task's tools/call carries the
 * task's own error (its code and message) and whether mcpterm gave up on the task itself.
 */
export const TASK_ERROR = "mcpterm/taskError";

/** What a failed task's tools/call error carries under TASK_ERROR. */
export type TaskError = JsonRpcErrorObject & { abandoned: boolean; madeUp: boolean };

/** How a task ended, for the tools/call it stands for. */
export type TaskOutcome =
  | { kind: "result"; result: Record<string, unknown> }
  /** `abandoned`: mcpterm gave up on a task that may still run (a question it could not answer). */
  | {
      kind: "error";
      error: JsonRpcErrorObject;
      abandoned?: boolean;
      /** The server sent no error object: mcpterm's words, and a code of its own not to show. */
      madeUp?: boolean;
    }
  /** The server cancelled it (nobody here asked). */
  | { kind: "cancelled"; statusMessage: string | undefined }
  /** The caller stopped waiting (cancel, a limit): the driver sends tasks/cancel. */
  | { kind: "stopped" };

export interface TaskRunContext {
  client: Client;
  era: ProtocolEra;
  /** The call's own signal: the person cancelling, or one of its limits. */
  signal: AbortSignal;
  /** What one poll may take. */
  timeoutMs: number;
  /** The call's hard limit, which bounds a 2025 tasks/result. */
  maxCallMs: number;
  /** Each state read from the server, in order: every answered poll, changed or not. */
  seen(task: TaskState): void;
  /** Answers one question the task asked (2026: inputRequests in tasks/get). */
  answer(request: TaskInputRequest, signal: AbortSignal): Promise<unknown>;
}

class Stopped extends Error {}

/** A tasks/* request that failed: what the server (or the way there) said, and which request. */
class Unanswered extends Error {
  constructor(
    readonly method: string,
    override readonly cause: unknown,
  ) {
    super(errorObject(cause).message);
  }
}

/**
 * Follows a task the server created for a tools/call until it ends, and says how. On 2026
 * (io.modelcontextprotocol/tasks) it polls `tasks/get` at the pace the server asks, answers the
 * questions the task puts in those answers with `tasks/update`, and reads the result from the
 * final `tasks/get`. On 2025-11-25 it waits on `tasks/result`, which is where such a server
 * delivers the task's questions (as requests of its own, answered like any) and then its result,
 * and polls `tasks/get` beside it to show the status.
 */
export async function runTask(context: TaskRunContext, first: TaskState): Promise<TaskOutcome> {
  try {
    return context.era === "modern" ? await runModern(context, first) : await runLegacy(context, first);
  } catch (error) {
    if (error instanceof Stopped || context.signal.aborted) return { kind: "stopped" };
    return { kind: "error", error: errorObject(error), abandoned: true };
  }
}

/**
 * Asks the server to stop the task, and says what became of the request (shown as the task's
 * status message): what the server answers does not matter any more, only whether it went out.
 */
export async function cancelTask(client: Client, taskId: string, timeoutMs: number): Promise<string> {
  try {
    await client.request({ method: "tasks/cancel", params: { taskId } }, AnyResult, {
      timeout: Math.min(timeoutMs, CANCEL_MS),
    });
    return CANCEL_SENT;
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
      return `${CANCEL_SENT}, not answered`;
    // An error answer is an answer: the request went out.
    if (error instanceof ProtocolError) return CANCEL_SENT;
    return `tasks/cancel could not be sent: ${errorObject(error).message.slice(0, 200)}`;
  }
}

async function runModern(context: TaskRunContext, first: TaskState): Promise<TaskOutcome> {
  const answers: TaskAnswers = { given: new Map(), delivered: new Map(), asked: 0 };
  let state = first;
  // The requests that failed since a round last went through whole, by method.
  let failed: string[] = [];
  for (;;) {
    await wait(pollPace(state, context.timeoutMs) * 2 ** failed.length, context.signal);
    try {
      const got = await untilStopped(getTask(context, state.taskId), context.signal, "tasks/get");
      state = sameTask(got, state.taskId);
      context.seen(state);
      if (state.status === "input_required") await answerQuestions(context, state.taskId, got, answers);
      if (isFinal(state.status)) return finalOutcome(state, got);
      failed = [];
    } catch (error) {
      if (!(error instanceof Unanswered) || !gotNoAnswer(error.cause)) throw refusal(error);
      failed.push(error.method);
      if (failed.length >= MAX_FAILED_POLLS) throw new Error(unansweredInARow(failed, error));
    }
  }
}

/**
 * The answers to a task's questions, by key, each with the question it answers: a question is
 * asked of the person once, and its answer sent again with the next tasks/update while the task
 * still asks that same question and no tasks/update carrying it got an answer (a proxy's 503
 * lost it), so a lost request neither loses the answer nor asks twice. A key the task asks again
 * with another question is a new question: an answer is never sent for what it did not answer.
 */
interface TaskAnswers {
  given: Map<string, { question: string; answer: unknown }>;
  /** The question each key's delivered answer was for. */
  delivered: Map<string, string>;
  /** Questions put to the person so far (MAX_QUESTIONS_PER_TASK). */
  asked: number;
}

async function answerQuestions(
  context: TaskRunContext,
  taskId: string,
  got: Record<string, unknown>,
  answers: TaskAnswers,
): Promise<void> {
  const current = newQuestions(got.inputRequests, new Set()).map(
    ([key, request]) => [key, request, JSON.stringify(request)] as const,
  );
  const pending = current.filter(([key, , question]) => answers.delivered.get(key) !== question);
  const unanswered = pending.filter(([key, , question]) => answers.given.get(key)?.question !== question);
  // A server that asks something new at every poll would keep the person (or the one-shot
  // declines) busy until maxCallMs: past the cap, mcpterm gives the task up and cancels it.
  if (answers.asked + unanswered.length > MAX_QUESTIONS_PER_TASK)
    throw new Error(`the task asked more than ${MAX_QUESTIONS_PER_TASK} questions, so it was cancelled`);
  answers.asked += unanswered.length;
  const fresh = await Promise.all(
    unanswered.map(
      async ([key, request, question]) =>
        [key, { question, answer: await context.answer(request, context.signal) }] as const,
    ),
  );
  for (const [key, given] of fresh) answers.given.set(key, given);
  const due = pending.flatMap(([key]) => {
    const given = answers.given.get(key);
    return given ? [[key, given] as const] : [];
  });
  if (due.length === 0) return;
  const inputResponses = Object.fromEntries(due.map(([key, given]) => [key, given.answer]));
  await untilStopped(
    context.client.request({ method: "tasks/update", params: { taskId, inputResponses } }, AnyResult, {
      timeout: context.timeoutMs,
    }),
    context.signal,
    "tasks/update",
  );
  for (const [key, given] of due) answers.delivered.set(key, given.question);
}

function finalOutcome(state: TaskState, got: Record<string, unknown>): TaskOutcome {
  if (state.status === "cancelled") return { kind: "cancelled", statusMessage: state.statusMessage };
  if (state.status === "completed") {
    const { result } = got;
    if (typeof result === "object" && result !== null && !Array.isArray(result))
      return { kind: "result", result: result as Record<string, unknown> };
    return {
      kind: "error",
      error: {
        code: INTERNAL_ERROR,
        message: "its tasks/get answer says completed but carries no result, which breaks the MCP protocol",
      },
      madeUp: true,
    };
  }
  const error = got.error as Partial<JsonRpcErrorObject> | undefined;
  if (typeof error?.code === "number" && typeof error.message === "string")
    return { kind: "error", error: { code: error.code, message: error.message.slice(0, 2000) } };
  return {
    kind: "error",
    error: {
      code: INTERNAL_ERROR,
      message: `the task failed${state.statusMessage ? `: ${state.statusMessage}` : ""}`,
    },
    madeUp: true,
  };
}

async function runLegacy(context: TaskRunContext, first: TaskState): Promise<TaskOutcome> {
  // Stops the polls and the wait on tasks/result; the SDK sends the reason with the
  // notifications/cancelled for tasks/result, so it is words (as the call's own reason is).
  const polling = new AbortController();
  const stopPolling = (): void => polling.abort(RESULT_WAIT_STOPPED);
  context.signal.addEventListener("abort", stopPolling, { once: true });
  if (context.signal.aborted) stopPolling();
  const polls = pollStatus(context, first, polling.signal);
  try {
    const result = await context.client.request(
      { method: "tasks/result", params: { taskId: first.taskId } },
      AnyResult,
      { signal: polling.signal, timeout: context.maxCallMs + SDK_TIMEOUT_SLACK_MS },
    );
    return { kind: "result", result };
  } catch (error) {
    if (context.signal.aborted) throw new Stopped();
    // No result: the task failed or was cancelled. Its status says which.
    const got = await getTask(context, first.taskId).catch(() => undefined);
    const state = got === undefined ? undefined : readTask(got);
    if (state?.status === "cancelled") return { kind: "cancelled", statusMessage: state.statusMessage };
    return { kind: "error", error: errorObject(error) };
  } finally {
    stopPolling();
    context.signal.removeEventListener("abort", stopPolling);
    await polls;
  }
}

/** Polls `tasks/get` for the status alone, until told to stop or the task ends. */
async function pollStatus(context: TaskRunContext, first: TaskState, stop: AbortSignal): Promise<void> {
  let state = first;
  try {
    while (!isFinal(state.status)) {
      await wait(pollPace(state, context.timeoutMs), stop);
      state = sameTask(await untilStopped(getTask(context, state.taskId), stop), state.taskId);
      if (!stop.aborted) context.seen(state);
    }
  } catch {
    // Stopped, or a poll failed: tasks/result still decides how the task ends.
  }
}

/**
 * One tasks/get. Not tied to the call's signal, so stopping never sends notifications/cancelled
 * about it (2026 forbids that for tasks); the caller stops waiting for it instead.
 */
function getTask(context: TaskRunContext, taskId: string): Promise<Record<string, unknown>> {
  return context.client.request({ method: "tasks/get", params: { taskId } }, AnyResult, {
    timeout: context.timeoutMs,
  });
}

/**
 * Whether a failed poll got no answer about the task: the way there failed (a dropped
 * connection, a timeout) or something in front of the server was busy (HTTP 5xx, 429). The
 * server's own error, and an HTTP refusal (401, 403, 404: signed out, not allowed, gone), are
 * answers, and end the call at once.
 */
function gotNoAnswer(error: unknown): boolean {
  if (error instanceof ProtocolError || error instanceof UnauthorizedError) return false;
  if (error instanceof SdkHttpError) return error.status >= 500 || error.status === 429;
  return true;
}

/** A request the server refused over HTTP says so with its status, which the SDK's words may not. */
function refusal(error: unknown): unknown {
  if (!(error instanceof Unanswered)) return error;
  if (error.cause instanceof SdkHttpError)
    return new Error(`${error.method} was refused (${requestFailure(error.cause)})`, { cause: error.cause });
  return error.cause;
}

/** Why a task was given up after MAX_FAILED_POLLS requests in a row got no answer, `last` the last. */
function unansweredInARow(failed: readonly string[], last: Unanswered): string {
  const why = requestFailure(last.cause);
  if (failed.every((method) => method === "tasks/get"))
    return `${MAX_FAILED_POLLS} polls in a row got no answer (${why})`;
  return `${MAX_FAILED_POLLS} tries in a row got no answer, the last its ${last.method}${last.method === "tasks/update" ? " with the answers" : ""} (${why})`;
}

function requestFailure(error: unknown): string {
  const { message } = errorObject(error);
  return error instanceof SdkHttpError ? `HTTP ${error.status}: ${message}` : message;
}

function sameTask(got: Record<string, unknown>, taskId: string): TaskState {
  const state = readTask(got);
  if (state?.taskId === taskId) return state;
  const raw = (typeof got.task === "object" && got.task !== null ? got.task : got) as Record<string, unknown>;
  // The right task in a state mcpterm does not know is told as such, not as another task.
  if (raw.taskId === taskId)
    throw new Error(
      `tasks/get for task ${taskId} answered with an unknown status ${JSON.stringify(String(raw.status).slice(0, 40))}`,
    );
  throw new Error(`tasks/get for task ${taskId} did not answer with that task`);
}

/** How long to wait before the next poll: the server's pace, but never near the silence limit. */
function pollPace(state: TaskState, timeoutMs: number): number {
  return Math.min(state.pollMs, Math.max(MIN_POLL_MS, Math.floor(timeoutMs / POLLS_PER_SILENCE_LIMIT)));
}

async function wait(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await pause(ms, undefined, { signal });
  } catch {
    throw new Stopped();
  }
}

/**
 * Waits on a request until the call is stopped. With `method`, a failure of the request itself
 * comes back as Unanswered naming it, told apart from what the answer then led to.
 */
function untilStopped<T>(promise: Promise<T>, signal: AbortSignal, method?: string): Promise<T> {
  if (signal.aborted) return Promise.reject(new Stopped());
  const named = method
    ? promise.catch((error: unknown) => {
        throw new Unanswered(method, error);
      })
    : promise;
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => reject(new Stopped());
    signal.addEventListener("abort", stop, { once: true });
    named.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}

function errorObject(error: unknown): JsonRpcErrorObject {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return { code: typeof code === "number" ? code : INTERNAL_ERROR, message: message.slice(0, 2000) };
}
