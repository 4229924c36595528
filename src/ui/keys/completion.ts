import type { CompletionSource, SlashCommand } from "../../core/commands/command-types.js";
import type { EditorState } from "./input-editor.js";

export interface Completion {
  state: EditorState;
  /** Every word that matched, for showing when there is more than one. */
  candidates: string[];
}

/**
 * Tab: completes the word before the cursor from `words` (slash commands only at the start of
 * the input). One match is completed with a space, unless it is the start of more (`@server:`,
 * a URI's folder, `key=`); several are completed to their common prefix.
 */
export function complete(state: EditorState, words: readonly string[]): Completion {
  const before = state.text.slice(0, state.cursor);
  const word = /\S*$/.exec(before)?.[0] ?? "";
  const atStart = before.trimStart() === word;
  const candidates = words.filter(
    (candidate) =>
      candidate.startsWith(word) && candidate !== word && (atStart || !candidate.startsWith("/")),
  );
  // After a space in a message there is nothing to go on; in a command line the next argument is.
  if (word === "" && !atStart && !before.trimStart().startsWith("/")) return { state, candidates: [] };
  if (candidates.length === 0) return { state, candidates };
  const only = candidates.length === 1 ? (candidates[0] ?? word) : undefined;
  const completed = only === undefined ? commonPrefix(candidates) : /[:/=]$/.test(only) ? only : `${only} `;
  if (completed.length <= word.length) return { state, candidates };
  const start = state.cursor - word.length;
  return {
    state: {
      text: state.text.slice(0, start) + completed + state.text.slice(state.cursor),
      cursor: start + completed.length,
    },
    candidates: candidates.length === 1 ? [] : candidates,
  };
}

function commonPrefix(words: readonly string[]): string {
  let prefix = words[0] ?? "";
  for (const word of words) while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/**
 * Pure: the words Tab may complete to, given the prompt's text before the cursor. At the start of
 * a command line, the commands and the servers' prompts; inside one, what that command takes next
 * (`/mcp logs ` takes a server); in a message, server and tool names. (Mentions and a prompt's
 * arguments are planned in the core: see completionPlan.)
 */
export function completionWords(
  before: string,
  commands: readonly SlashCommand[],
  source: CompletionSource,
): readonly string[] {
  const text = before.trimStart();
  if (!text.startsWith("/")) {
    return [...source.servers, ...source.tools.flatMap((tool) => [tool.name, `${tool.server}/${tool.name}`])];
  }
  const [head = "", ...rest] = text.split(/\s+/);
  if (rest.length === 0)
    return [
      ...commands.map((command) => `/${command.name}`),
      ...(source.prompts ?? []).map((name) => `/${name}`),
    ];
  const command = commands.find((candidate) => `/${candidate.name}` === head.toLowerCase());
  return command?.complete?.(rest.slice(0, -1), source) ?? [];
}
