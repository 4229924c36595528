import { nearestKey } from "../config/nearest-key.js";
import { errorMessage } from "../errors.js";
import { commandWords } from "./command-words.js";
import type { CommandContext, CommandResult, SlashCommand } from "./command-types.js";
import { compactCommand, statsCommand } from "./context-commands.js";
import { helpCommand } from "./help-command.js";
import { kbCommand } from "./kb-command.js";
import { mcpCommand } from "./mcp-command.js";
import { modelCommand } from "./model-command.js";
import { noticesCommand } from "./notices-command.js";
import { permissionsCommand } from "./permissions-command.js";
import { rootsCommand } from "./roots-command.js";
import { resumeCommand } from "./resume-command.js";
import { clearCommand, exitCommand, traceCommand } from "./session-commands.js";
import { promptsCommand, readCommand, resourcesCommand } from "./resources-command.js";
import { tasksCommand } from "./tasks-command.js";
import { toolsCommand } from "./tools-command.js";

/** Every slash command, in the order /help lists them. */
export const SLASH_COMMANDS: readonly SlashCommand[] = [
  helpCommand,
  toolsCommand,
  resourcesCommand,
  promptsCommand,
  readCommand,
  kbCommand,
  traceCommand,
  mcpCommand,
  tasksCommand,
  modelCommand,
  rootsCommand,
  permissionsCommand,
  noticesCommand,
  compactCommand,
  statsCommand,
  resumeCommand,
  clearCommand,
  exitCommand,
];

/**
 * `/tools fixture echo` -> { name: "tools", args: ["fixture", "echo"], typed: "fixture echo" };
 * undefined for text that is not a command. The arguments are split at spaces, a quoted word
 * kept whole (see commandWords), so a file name with spaces can be given in quotes.
 */
export function parseSlashInput(input: string): { name: string; args: string[]; typed: string } | undefined {
  const trimmed = input.trim();
  if (!trimmed.startsWith("/") || trimmed.startsWith("//")) return undefined;
  const [head = ""] = trimmed.slice(1).split(/\s/, 1);
  if (head === "") return undefined;
  const typed = trimmed.slice(1 + head.length).trim();
  return { name: head.toLowerCase(), args: commandWords(typed), typed };
}

/** Runs one slash command line; an unknown command or a bug in one becomes an error result. */
export async function runSlashCommand(context: CommandContext, input: string): Promise<CommandResult> {
  const parsed = parseSlashInput(input);
  if (!parsed) return { kind: "error", message: "Not a command; commands start with /." };
  const command = context.commands.find((candidate) => candidate.name === parsed.name);
  if (!command) {
    const near = nearestKey(
      parsed.name,
      context.commands.map((candidate) => candidate.name),
    );
    // A pasted wall of text after a slash is named by its start, not echoed whole.
    const named = parsed.name.length > 40 ? `${parsed.name.slice(0, 40)}…` : parsed.name;
    return {
      kind: "error",
      message:
        near === undefined
          ? `Unknown command /${named}; type /help for the list.`
          : `Unknown command /${named}; did you mean /${near}? (/help lists them all.)`,
    };
  }
  try {
    return await command.run(context, parsed.args, parsed.typed);
  } catch (error) {
    return { kind: "error", message: `/${command.name} failed: ${errorMessage(error)}` };
  }
}
