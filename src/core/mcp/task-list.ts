import type { TaskState, TaskStatus } from "./task-state.js";

/** One task this session started, as `/tasks` lists it. */
export interface TaskEntry {
  server: string;
  tool: string;
  taskId: string;
  status: TaskStatus;
  /** The server's last words on it: untrusted, shown only through the terminal's sanitizer. */
  statusMessage: string | undefined;
  startedAt: number;
  updatedAt: number;
}

/** How many tasks one server's list keeps: the oldest go first. */
const MAX_ENTRIES = 200;

/** The tasks one server ran for this session, oldest first. */
export class TaskList {
  private readonly entries: TaskEntry[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Notes a task just created; returns its entry, which `update` keeps current. */
  add(server: string, tool: string, task: TaskState): TaskEntry {
    const at = this.now();
    const entry: TaskEntry = {
      server,
      tool,
      taskId: task.taskId,
      status: task.status,
      statusMessage: task.statusMessage,
      startedAt: at,
      updatedAt: at,
    };
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.shift();
    return entry;
  }

  /** True when the state differs from what the entry held (the caller then tells its listeners). */
  update(entry: TaskEntry, status: TaskStatus, statusMessage: string | undefined): boolean {
    if (entry.status === status && entry.statusMessage === statusMessage) return false;
    entry.status = status;
    entry.statusMessage = statusMessage;
    entry.updatedAt = this.now();
    return true;
  }

  snapshot(): TaskEntry[] {
    return this.entries.map((entry) => ({ ...entry }));
  }
}
