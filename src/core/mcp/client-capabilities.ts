import type { ClientCapabilities } from "@modelcontextprotocol/client";

/** The 2026 tasks extension (SEP-2663): a tools/call may be answered with a task to poll. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/**
 * What mcpterm tells every server it can do. Declared in every mode, so servers offer the same
 * tools to the TUI and to scripts; one-shot mode then declines what needs a person. A 2026
 * server reads it in every request's `_meta`; the tasks extension there lets it answer a tool
 * call with a task, which mcpterm runs (tasks/task-driver.ts).
 */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  roots: { listChanged: true },
  sampling: {},
  elicitation: { form: {}, url: {} },
  extensions: { [TASKS_EXTENSION]: {} },
};
