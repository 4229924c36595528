import type { Tool } from "@modelcontextprotocol/client";
import { revealControls } from "./sanitize-terminal.js";
import { schemaWithholdReason } from "./schema-for-model.js";

export const NEEDS_TASKS_REASON =
  "needs task-based execution, which its server does not offer for tool calls (capabilities.tasks.requests.tools.call)";
export const APP_ONLY_REASON = "app-only (MCP Apps)";

export const SECRET_NAME_REASON = "its name holds what looks like a secret";
/** The longest tool name the specification allows (SEP-986). */
export const MAX_TOOL_NAME_CHARS = 128;

/** How much of an overlong name a listing shows: enough to tell which tool it is. */
const OVERLONG_NAME_SHOWN = 64;

/**
 * A tool's name as a listing shows it (`mcpterm tools`, `/tools`, a missing tool's sentence):
 * its escapes and hidden characters written out (`ev⟨U+001B⟩[31mil`), so two names that differ
 * only by them never look the same, and past MAX_TOOL_NAME_CHARS (such a tool is withheld) its
 * start and its length, so a name of thousands of characters does not fill the screen.
 */
export function listedToolName(name: string): string {
  const shown = name.length <= MAX_TOOL_NAME_CHARS ? name : name.slice(0, OVERLONG_NAME_SHOWN);
  const written = revealControls(shown);
  return name.length <= MAX_TOOL_NAME_CHARS ? written : `${written}… (${name.length} characters)`;
}

/**
 * Why a tool must not be offered to the model at all, or undefined: its name carries a secret
 * (`holdsSecret`, see nameHoldsSecret: a name goes to the model as it is, and cannot be redacted
 * without breaking the call), it can only run as a task its server does not offer
 * (`serverRunsTasks`, see offersToolTasks), its server keeps it for an app's UI, or its input
 * schema cannot be shown safely (schema-for-model.ts).
 */
export function toolWithholdReason(
  tool: Pick<Tool, "name" | "inputSchema" | "execution" | "_meta">,
  redact: (text: string) => string = (text) => text,
  serverRunsTasks = false,
  holdsSecret: (name: string) => boolean = () => false,
): string | undefined {
  // Longer than MCP allows (SEP-986), and every word of it would be read for a secret below.
  if (tool.name.length > MAX_TOOL_NAME_CHARS)
    return `its name is ${tool.name.length} characters, more than the ${MAX_TOOL_NAME_CHARS} MCP allows`;
  if (holdsSecret(tool.name)) return SECRET_NAME_REASON;
  if (needsTaskExecution(tool) && !serverRunsTasks) return NEEDS_TASKS_REASON;
  if (isAppOnly(tool)) return APP_ONLY_REASON;
  return schemaWithholdReason(tool.inputSchema, redact);
}

/**
 * MCP tasks (2025-11-25): a tool whose `execution.taskSupport` is "required" answers a plain call
 * with an error; mcpterm runs it as a task where its server offers tasks for tool calls. (On
 * 2026-07-28 the tasks extension has no such marker: the server decides per call.)
 */
export function needsTaskExecution(tool: Pick<Tool, "execution">): boolean {
  return tool.execution?.taskSupport === "required";
}

/** Whether a 2025 server's capabilities offer tasks for tools/call (`tasks.requests.tools.call`). */
export function offersToolTasks(capabilities: unknown): boolean {
  const tasks = (capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined)
    ?.tasks;
  return typeof tasks?.requests?.tools?.call === "object" && tasks.requests.tools.call !== null;
}

/**
 * Whether a tool cannot be called on this server at all: it runs only as a task (2025-11-25,
 * needsTaskExecution) and the server's capabilities offer no tasks for tool calls.
 */
export function cannotRunAsTask(tool: Pick<Tool, "execution">, capabilities: unknown): boolean {
  return needsTaskExecution(tool) && !offersToolTasks(capabilities);
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
