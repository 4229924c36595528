import type { Tool } from "@modelcontextprotocol/client";
import { schemaWithholdReason } from "./schema-for-model.js";

export const NEEDS_TASKS_REASON = "needs task-based execution, which mcpterm does not run yet";
export const APP_ONLY_REASON = "app-only (MCP Apps)";

/**
 * Why a tool must not be offered to the model at all, or undefined: mcpterm cannot run it, its
 * server keeps it for an app's UI, or its input schema cannot be shown safely (schema-for-model.ts).
 */
export function toolWithholdReason(
  tool: Pick<Tool, "inputSchema" | "execution" | "_meta">,
  redact: (text: string) => string = (text) => text,
): string | undefined {
  if (needsTaskExecution(tool)) return NEEDS_TASKS_REASON;
  if (isAppOnly(tool)) return APP_ONLY_REASON;
  return schemaWithholdReason(tool.inputSchema, redact);
}

/** MCP tasks: a tool whose `execution.taskSupport` is "required" answers a plain call with an error. */
export function needsTaskExecution(tool: Pick<Tool, "execution">): boolean {
  return tool.execution?.taskSupport === "required";
}

/**
 * MCP Apps: `_meta.ui.visibility` names who may call the tool, "model" and/or "app"; a list
 * without "model" keeps it for the app's UI. No list, or an empty one, means both.
 */
export function isAppOnly(tool: Pick<Tool, "_meta">): boolean {
  const ui = tool._meta?.ui;
  if (typeof ui !== "object" || ui === null || !("visibility" in ui)) return false;
  const { visibility } = ui;
  return Array.isArray(visibility) && visibility.length > 0 && !visibility.includes("model");
}
