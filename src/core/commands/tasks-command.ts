import type { TaskEntry } from "../mcp/task-list.js";
import { formatDuration } from "../text/index.js";
import type { CommandResult, SlashCommand } from "./command-types.js";

/**
 * `/tasks`: the tool calls servers ran as MCP tasks this session (a long-running tool's call is
 * answered with a task, which mcpterm follows until it ends): server, tool, the task's id, its
 * status and the server's last words on it, and how long ago it started.
 */
export const tasksCommand: SlashCommand = {
  name: "tasks",
  usage: "",
  description: "the tool calls servers ran as MCP tasks this session, with their status",
  complete: () => [],
  run: (context, args) => {
    if (args.length > 0) return Promise.resolve({ kind: "error", message: "Usage: /tasks" });
    return Promise.resolve(tasksResult(context.manager.tasks(), context.redactor.redactText, Date.now()));
  },
};

/** The table; the server's texts are redacted here, and sanitized where they are shown. */
export function tasksResult(
  tasks: readonly TaskEntry[],
  redact: (text: string) => string,
  now: number,
): CommandResult {
  if (tasks.length === 0)
    return {
      kind: "text",
      text: "No tasks yet: a server runs a tool call as a task when the tool is long-running (its status then shows in the call's panel).",
    };
  return {
    kind: "table",
    title: `Tasks this session (${tasks.length})`,
    columns: ["server", "tool", "task", "status", "age"],
    rows: tasks.map((task) => [
      task.server,
      task.tool,
      redact(task.taskId),
      `${task.status.replace("_", " ")}${task.statusMessage ? `: ${redact(task.statusMessage)}` : ""}`,
      formatDuration(now - task.startedAt),
    ]),
    note: "Cancel a running one with Esc (or Ctrl+C) while its call runs.",
  };
}
