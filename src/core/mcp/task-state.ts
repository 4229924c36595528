/** The states an MCP task goes through; the last three are final. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

const STATUSES: readonly TaskStatus[] = ["working", "input_required", "completed", "failed", "cancelled"];

/** Longest status message kept from a server (it is shown, traced, and written by the server). */
const MAX_STATUS_MESSAGE = 500;
/** Longest task id kept: ids come from the server. */
const MAX_TASK_ID = 200;
/** The poll interval used when the server suggests none, and the bounds put on one it suggests. */
export const DEFAULT_POLL_MS = 1000;
const MIN_POLL_MS = 50;
const MAX_POLL_MS = 10_000;

/** What mcpterm reads of a task, in either era (the 2025 names `pollInterval`, 2026 `pollIntervalMs`). */
export interface TaskState {
  taskId: string;
  status: TaskStatus;
  /** The server's words on where the task is: untrusted, shown only through the terminal's sanitizer. */
  statusMessage: string | undefined;
  /** How long to wait before asking again, bounded. */
  pollMs: number;
}

export function isFinal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** The task in a CreateTaskResult or a tasks/get answer (fields at the top or under `task`), or undefined. */
export function readTask(value: unknown): TaskState | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const task = taskFields(value);
  const { taskId, status, statusMessage } = task;
  if (typeof taskId !== "string" || taskId === "" || taskId.length > MAX_TASK_ID) return undefined;
  if (!STATUSES.includes(status as TaskStatus)) return undefined;
  const poll = task.pollIntervalMs ?? task.pollInterval;
  return {
    taskId,
    status: status as TaskStatus,
    statusMessage: typeof statusMessage === "string" ? statusMessage.slice(0, MAX_STATUS_MESSAGE) : undefined,
    pollMs:
      typeof poll === "number" && Number.isFinite(poll)
        ? Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, poll))
        : DEFAULT_POLL_MS,
  };
}

/**
 * What keeps readTask from reading a task, in words for the server's author: its taskId or its
 * status. Undefined when it reads.
 */
export function taskProblem(value: unknown): string | undefined {
  if (readTask(value) !== undefined) return undefined;
  if (typeof value !== "object" || value === null) return "it is not an object";
  const { taskId, status } = taskFields(value);
  if (typeof taskId !== "string" || taskId === "") return "its taskId is missing or empty";
  if (taskId.length > MAX_TASK_ID) return `its taskId is longer than ${MAX_TASK_ID} characters`;
  const shown = typeof status === "string" ? JSON.stringify(status.slice(0, 40)) : String(status);
  return `its status ${shown} is not one of ${STATUSES.join(", ")}`;
}

/** A task's fields: under `task` (2025-11-25's CreateTaskResult) or the result's own (2026). */
function taskFields(value: object): Record<string, unknown> {
  const record = value as Record<string, unknown>;
  return (typeof record.task === "object" && record.task !== null ? record.task : record) as Record<
    string,
    unknown
  >;
}

/** One change a caller is told about: the task was created, or its status or message changed. */
export interface TaskUpdate {
  server: string;
  tool: string;
  taskId: string;
  status: TaskStatus;
  statusMessage: string | undefined;
}
