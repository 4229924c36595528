import type { SlashCommand } from "../../core/commands/command-types.js";
import type { CatalogEntry } from "../../core/context/completion-plan.js";

/**
 * Pure: what a word the completion menu offers is, in a few words — a command's description, a
 * server prompt's, a resource's name — or undefined where nothing more is known. Texts from
 * servers are cleaned where the menu draws them.
 */
export function describeCompletion(
  word: string,
  commands: readonly SlashCommand[],
  catalog: readonly CatalogEntry[],
): string | undefined {
  if (word.startsWith("/")) {
    const name = word.slice(1);
    const command = commands.find((candidate) => candidate.name === name.toLowerCase());
    if (command) return command.description;
    const [server, prompt] = splitOnce(name, ":");
    const found = catalog
      .find((entry) => entry.name === server)
      ?.prompts.find((each) => each.name === prompt);
    return found ? (found.description ?? `a prompt of server "${server}"`) : undefined;
  }
  if (!word.startsWith("@")) return undefined;
  const mention = word.slice(1);
  if (mention.endsWith(":")) return `resources of server "${mention.slice(0, -1)}"`;
  const [server, uri] = splitOnce(mention, ":");
  if (uri === undefined) return mention.endsWith("/") ? "folder" : "file";
  const entry = catalog.find((candidate) => candidate.name === server);
  const resource = entry?.resources.find((each) => each.uri === uri);
  if (resource) return resource.description ?? resource.name;
  return entry?.resourceTemplates.find((each) => uri.startsWith(each.uriTemplate.split("{")[0] ?? ""))?.name;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
