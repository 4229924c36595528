import { nearestKey } from "../config/nearest-key.js";
import { errorMessage } from "../errors.js";
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

/**
 * A command's arguments split on spaces, where a word that starts with a quote and has a
 * closing quote before a space or the end is one word without them (`"my notes.md"`, `'it's
 * here'`; in double quotes, `\"` and `\\` stand for `"` and `\`). Any other quote is a
 * character: `o'neil's.md` and `mem://o'neil/o'brien` stay as typed.
 */
export function commandWords(typed: string): string[] {
  const words: string[] = [];
  let at = 0;
  while (at < typed.length) {
    while (at < typed.length && /\s/.test(typed.charAt(at))) at += 1;
    if (at >= typed.length) break;
    const quoted = quotedWordAt(typed, at);
    if (quoted) {
      words.push(quoted.word);
      at = quoted.end;
      continue;
    }
    const end = typed.slice(at).search(/\s/);
    const stop = end === -1 ? typed.length : at + end;
    words.push(typed.slice(at, stop));
    at = stop;
  }
  return words;
}

/** The quoted word that starts at `start`, and where it ends; undefined when none does. */
function quotedWordAt(typed: string, start: number): { word: string; end: number } | undefined {
  const quote = typed.charAt(start);
  if (quote !== '"' && quote !== "'") return undefined;
  let word = "";
  for (let at = start + 1; at < typed.length; at += 1) {
    const char = typed.charAt(at);
    if (quote === '"' && char === "\\" && /["\\]/.test(typed.charAt(at + 1))) {
      word += typed.charAt(at + 1);
      at += 1;
    } else if (char === quote && (at + 1 === typed.length || /\s/.test(typed.charAt(at + 1)))) {
      return { word, end: at + 1 };
    } else word += char;
  }
  return undefined;
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
