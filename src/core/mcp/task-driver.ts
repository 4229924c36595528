import type { Client, JSONRPCMessage } from "@modelcontextprotocol/client";
import type { ProtocolEra } from "./protocol-era.js";
import { CLIENT_RAISED } from "./server-sent-errors.js";
import { brokenAnswer } from "./malformed-answer.js";
import type { WireWatcher } from "./tapped-transport.js";
import { answerTaskQuestion, type TaskQuestionAnswerer } from "./task-input.js";
import { TaskList, type TaskEntry } from "./task-list.js";
import {
  CANCEL_SENT,
  cancelTask,
  INTERNAL_ERROR,
  runTask,
  TASK_ERROR,
  type TaskOutcome,
} from "./task-run.js";
import type { TaskState, TaskUpdate } from "./task-state.js";
import { isFinal, readTask, taskProblem } from "./task-state.js";

/**
 * The `_meta` key that ties a tools/call on the wire to the caller waiting for it; taken off
 * before the request leaves (it survives the SDK's input_required retries, which re-send the
 * original params under new ids).
 */
const CALL_MARK = "mcpterm/call";
/** What a task mcpterm stopped says until its tasks/cancel went out. */
const CANCELLING = "sending tasks/cancel";
/** What an untracked call (not sent through callToolWithin) gets: nobody waits with a signal. */
const UNTRACKED = { timeoutMs: 60_000, maxCallMs: 3_600_000 };

/** What one caller of tools/call tells the driver, should the server answer with a task. */
export interface TaskCallOptions {
  tool: string;
  /** On 2025-11-25: ask for a task (`params.task`), as a tool whose taskSupport is "required" must be called. */
  askTask: boolean;
  signal: AbortSignal;
  /** What one poll may take. */
  timeoutMs: number;
  /** The call's hard limit. */
  maxCallMs: number;
  /** Each change of the task: created, then each new status or status message. */
  onUpdate?: (update: TaskUpdate) => void;
  /** The server answered a poll about the task, whether or not anything changed. */
  alive?: () => void;
}

/** One caller's tools/call as the driver knows it. */
export interface TaskCallHandle {
  /** To merge into the request's `_meta`. */
  meta: Record<string, string>;
  /** The task the server made of the call, once it answered with one. */
  taskId: string | undefined;
  /** Set when the server cancelled the task (nobody here asked): its status message, or "". */
  serverCancelled: string | undefined;
  /** Settles once the driver is done with the task: a stopped one's tasks/cancel went out. */
  followed: Promise<unknown>;
  /** The call is over: forget it. */
  end(): void;
}

interface Tracked {
  options: TaskCallOptions;
  handle: TaskCallHandle;
}

/**
 * Runs the tool calls a server answers with a task, below the SDK (which has no task runtime in
 * either era and rejects such an answer): the connection's transport shows it each message
 * (WireWatcher). It keeps a task answer to a tools/call from the SDK, follows the task
 * (runTask), tells the caller each status, and hands the SDK the task's result (or its error) as
 * the answer to the original request, so the call ends as any other does. A call the caller
 * stops has its task cancelled with `tasks/cancel`, never with notifications/cancelled.
 */
export class TaskDriver {
  private nextMark = 0;
  private readonly calls = new Map<string, Tracked>();
  /** The tasks being followed now: what stops each, and its end (tasks/cancel sent, if stopped). */
  private readonly following = new Set<{ stop: AbortController; done: Promise<unknown> }>();
  readonly list = new TaskList();

  constructor(
    private readonly server: string,
    private readonly answerer: TaskQuestionAnswerer,
    /** Something `/tasks` shows changed. */
    private readonly changed: () => void = () => undefined,
  ) {}

  /** Marks one tools/call as this caller's; the request goes out with `handle.meta` in its `_meta`. */
  begin(options: TaskCallOptions): TaskCallHandle {
    this.nextMark += 1;
    const mark = String(this.nextMark);
    const handle: TaskCallHandle = {
      meta: { [CALL_MARK]: mark },
      taskId: undefined,
      serverCancelled: undefined,
      followed: Promise.resolve(),
      end: () => this.calls.delete(mark),
    };
    this.calls.set(mark, { options, handle });
    return handle;
  }

  /** The watcher for one connection (a client and the era it speaks). */
  watcher(client: Client, era: () => ProtocolEra | undefined): WireWatcher {
    return new ConnectionTasks(this, client, era);
  }

  tracked(mark: unknown): Tracked | undefined {
    return typeof mark === "string" ? this.calls.get(mark) : undefined;
  }

  /**
   * The connection is closing (Ctrl+C on `mcpterm call`, the session ending): stops every task
   * still followed and waits, at most `ms`, for their tasks/cancel to go out first, so the
   * server hears of it rather than having the task run on unseen.
   */
  async stopAll(ms: number): Promise<void> {
    if (this.following.size === 0) return;
    const all = [...this.following];
    for (const following of all) following.stop.abort();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([Promise.allSettled(all.map((following) => following.done)), bound]);
    clearTimeout(timer);
  }

  /** Follows one task to its end; what becomes of it is told to the caller and the list. */
  async follow(
    client: Client,
    era: ProtocolEra,
    tool: string,
    tracked: Tracked | undefined,
    task: TaskState,
  ): Promise<TaskOutcome> {
    const stop = new AbortController();
    const done = this.followUntil(client, era, tool, tracked, task, stop.signal);
    const following = { stop, done };
    if (tracked) tracked.handle.followed = done.catch(() => undefined);
    this.following.add(following);
    try {
      return await done;
    } finally {
      this.following.delete(following);
    }
  }

  private async followUntil(
    client: Client,
    era: ProtocolEra,
    tool: string,
    tracked: Tracked | undefined,
    task: TaskState,
    closing: AbortSignal,
  ): Promise<TaskOutcome> {
    const options = tracked?.options ?? {
      tool,
      askTask: false,
      signal: new AbortController().signal,
      ...UNTRACKED,
    };
    const entry = this.list.add(this.server, tool, task);
    if (tracked) tracked.handle.taskId = task.taskId;
    const tell = (state: Pick<TaskState, "status" | "statusMessage">, created = false): void => {
      if (!this.list.update(entry, state.status, state.statusMessage) && !created) return;
      options.onUpdate?.(updateOf(entry));
      this.changed();
    };
    tell(task, true);
    // Told at once when the call stops, before the call's failure is: whoever follows the call
    // (the panel, the trace) hears the task was cancelled before they hear the call ended.
    const stopped = (): void => tell({ status: "cancelled", statusMessage: CANCELLING });
    let last = task;
    const signal = AbortSignal.any([options.signal, closing]);
    signal.addEventListener("abort", stopped, { once: true });
    const outcome = await runTask(
      {
        client,
        era,
        signal,
        timeoutMs: options.timeoutMs,
        maxCallMs: options.maxCallMs,
        seen: (state) => {
          options.alive?.();
          last = state;
          // A final status is told once, by settle, as the outcome has it: a task that says
          // `completed` but has no result shows `failed` alone, never both.
          if (!isFinal(state.status)) tell(state);
        },
        answer: (request, signal) => answerTaskQuestion(this.answerer, request, signal),
      },
      task,
    );
    signal.removeEventListener("abort", stopped);
    // The server's words on a completed task, only if it said them of the completed task (a 2025
    // result comes from tasks/result, and the last poll's message may be a step long past).
    const completedMessage = last.status === "completed" ? last.statusMessage : undefined;
    await this.settle(client, entry, outcome, options.timeoutMs, tell, completedMessage, last.status);
    if (outcome.kind === "cancelled" && tracked) tracked.handle.serverCancelled = outcome.statusMessage ?? "";
    return outcome;
  }

  private async settle(
    client: Client,
    entry: TaskEntry,
    outcome: TaskOutcome,
    timeoutMs: number,
    tell: (state: Pick<TaskState, "status" | "statusMessage">) => void,
    completedMessage: string | undefined,
    /** What the server last said of the task: what it is still known to be if it was not cancelled. */
    lastStatus: TaskState["status"],
  ): Promise<void> {
    // Cancelled only if tasks/cancel went out: otherwise the task may still run at the server.
    const statusAfter = (cancel: string): TaskState["status"] =>
      cancel.startsWith(CANCEL_SENT) ? "cancelled" : lastStatus;
    switch (outcome.kind) {
      case "result":
        tell({ status: "completed", statusMessage: completedMessage });
        return;
      case "cancelled":
        tell({ status: "cancelled", statusMessage: outcome.statusMessage });
        return;
      case "error": {
        if (!outcome.abandoned) {
          tell({ status: "failed", statusMessage: outcome.error.message });
          return;
        }
        const cancel = await cancelTask(client, entry.taskId, timeoutMs);
        tell({ status: statusAfter(cancel), statusMessage: `${outcome.error.message}; ${cancel}` });
        return;
      }
      case "stopped": {
        // Said only once tasks/cancel went out (or why it could not).
        const cancel = await cancelTask(client, entry.taskId, timeoutMs);
        tell({ status: statusAfter(cancel), statusMessage: cancel });
      }
    }
  }
}

function updateOf(entry: TaskEntry): TaskUpdate {
  const { server, tool, taskId, status, statusMessage } = entry;
  return { server, tool, taskId, status, statusMessage };
}

type Id = string | number;

/** The task driver on one connection: which tools/call ids are waiting, which got tasks. */
class ConnectionTasks implements WireWatcher {
  private readonly waiting = new Map<
    Id,
    { tool: string; tracked: Tracked | undefined; askedTask: boolean }
  >();
  /** tools/call ids answered with a task: the SDK's notifications/cancelled for them stay here. */
  private readonly answeredWithTask = new Set<Id>();
  private deliver: (message: JSONRPCMessage) => void = () => undefined;

  constructor(
    private readonly driver: TaskDriver,
    private readonly client: Client,
    private readonly era: () => ProtocolEra | undefined,
  ) {}

  started(deliver: (message: JSONRPCMessage) => void): void {
    this.deliver = deliver;
  }

  sending(message: JSONRPCMessage): JSONRPCMessage | undefined {
    if (!("method" in message)) return message;
    if (message.method === "notifications/cancelled") {
      const requestId = (message.params as { requestId?: Id } | undefined)?.requestId;
      return requestId !== undefined && this.answeredWithTask.has(requestId) ? undefined : message;
    }
    if (message.method !== "tools/call" || !("id" in message)) return message;
    const params = (message.params ?? {}) as Record<string, unknown> & { _meta?: Record<string, unknown> };
    const { [CALL_MARK]: mark, ...meta } = params._meta ?? {};
    const tracked = this.driver.tracked(mark);
    const tool = typeof params.name === "string" ? params.name.slice(0, 200) : "?";
    const askTask = this.era() === "legacy" && tracked?.options.askTask === true;
    this.waiting.set(message.id, { tool, tracked, askedTask: askTask || "task" in params });
    if (mark === undefined) return message;
    const { _meta: _dropped, ...rest } = params;
    return {
      ...message,
      params: {
        ...rest,
        ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
        ...(askTask ? { task: {} } : {}),
      },
    };
  }

  sent(): void {
    // Everything was noted on the way out (sending).
  }

  received(message: JSONRPCMessage): JSONRPCMessage | undefined {
    if (!("id" in message) || message.id === undefined) return message;
    if ("method" in message) return message;
    const waiting = this.waiting.get(message.id);
    if (waiting === undefined) return message;
    this.waiting.delete(message.id);
    if (!("result" in message)) return message;
    const era = this.era();
    // A 2026 answer that says it is a task but cannot be read as one: the SDK would call its
    // resultType unsupported, which sends the server's author looking in the wrong place.
    const problem = era === "modern" ? unreadableTask(message.result) : undefined;
    if (problem !== undefined)
      return brokenAnswer(
        message.id,
        `its tools/call answer is a task (resultType "task"), but ${problem}`,
        JSON.stringify(message),
      );
    const task = era === undefined ? undefined : taskAnswer(message.result, era);
    if (era === undefined || task === undefined) return message;
    // 2025-11-25: a server must not answer a tools/call that asked for no task with one. Not
    // followed: the answer goes to the SDK as it is, which finds no result in it.
    if (era === "legacy" && !waiting.askedTask) return message;
    const { id } = message;
    this.answeredWithTask.add(id);
    void this.driver
      .follow(this.client, era, waiting.tool, waiting.tracked, task)
      .then((outcome) => {
        const answer = answerFor(outcome, era);
        if (answer) this.deliver({ jsonrpc: "2.0", id, ...answer });
      })
      .finally(() => this.answeredWithTask.delete(id));
    return undefined;
  }
}

/** What is wrong with a 2026 answer whose resultType is "task", when it cannot be read as one. */
function unreadableTask(result: unknown): string | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  return (result as Record<string, unknown>).resultType === "task" ? taskProblem(result) : undefined;
}

/** The task in a tools/call answer, when the server answered with one rather than the result. */
function taskAnswer(result: unknown, era: ProtocolEra): TaskState | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const record = result as Record<string, unknown>;
  // 2026: the extension's resultType; 2025-11-25: a CreateTaskResult, `task` in place of content.
  const isTask = era === "modern" ? record.resultType === "task" : "task" in record && !("content" in record);
  return isTask ? readTask(record) : undefined;
}

/** What the SDK is handed for the original tools/call, if anything (a stopped call has ended there). */
function answerFor(
  outcome: TaskOutcome,
  era: ProtocolEra,
):
  | { result: Record<string, unknown> }
  | { error: { code: number; message: string; data?: unknown } }
  | undefined {
  switch (outcome.kind) {
    case "result":
      return { result: era === "modern" ? { ...outcome.result, resultType: "complete" } : outcome.result };
    case "error":
      // Never the task's own code: the SDK and mcpterm read a tools/call's error code (-32020
      // resends the call, -32602 blames its arguments), and this call was answered, with a task.
      // Stamped as mcpterm's own, so nothing reports it as the server's JSON-RPC error.
      return {
        error: {
          code: INTERNAL_ERROR,
          message: outcome.error.message,
          data: {
            raisedBy: CLIENT_RAISED,
            [TASK_ERROR]: {
              ...outcome.error,
              abandoned: outcome.abandoned === true,
              madeUp: outcome.madeUp === true,
            },
          },
        },
      };
    case "cancelled":
      return {
        error: {
          code: INTERNAL_ERROR,
          message: `the server cancelled the task${outcome.statusMessage ? `: ${outcome.statusMessage}` : ""}`,
          data: { raisedBy: CLIENT_RAISED },
        },
      };
    case "stopped":
      return undefined;
  }
}
