import path from "node:path";
import { pathToFileURL } from "node:url";
import type { CommandResult, RootControl, SlashCommand } from "./command-types.js";
import { typedAfterFirstWord } from "./command-words.js";

const USAGE = "Usage: /roots, /roots add <folder>, /roots remove <folder>";

export const rootsCommand: SlashCommand = {
  name: "roots",
  usage: "[add|remove <folder>]",
  description: "the folders offered to servers as roots; add or remove one (servers are told)",
  complete: (args) => (args.length === 0 ? ["add", "remove"] : []),
  run: (context, args, typed) => Promise.resolve(rootsResult(context.roots, args, typed)),
};

function rootsResult(roots: RootControl | undefined, args: readonly string[], typed: string): CommandResult {
  if (!roots) return { kind: "error", message: "This session offers no roots." };
  const [action, ...rest] = args;
  // A folder name may hold spaces, in quotes or not: unquoted, it is the rest of the line as typed.
  const folder = rest.length === 1 ? (rest[0] ?? "") : typedAfterFirstWord(typed);
  if (action === undefined) return listed(roots.paths());
  if ((action !== "add" && action !== "remove") || folder === "") return { kind: "error", message: USAGE };
  if (action === "add") {
    const added = roots.add(folder);
    if (!added.ok) return { kind: "error", message: `Not added: ${added.reason}.` };
    return {
      kind: "text",
      text: added.added
        ? `Added ${added.path} to the roots; connected servers were told.`
        : `${added.path} is a root already.`,
    };
  }
  if (!roots.remove(folder)) return { kind: "error", message: `${folder} is not a root; /roots lists them.` };
  return { kind: "text", text: `Removed ${folder} from the roots; connected servers were told.` };
}

function listed(paths: readonly string[]): CommandResult {
  if (paths.length === 0)
    return {
      kind: "text",
      text: "No roots: servers that ask are offered none. /roots add <folder> adds one.",
    };
  return {
    kind: "table",
    title: "Roots (offered to servers that ask)",
    columns: ["folder", "uri"],
    rows: paths.map((folder) => [folder, pathToFileURL(path.resolve(folder)).href]),
    note: "/roots add <folder> · /roots remove <folder>",
  };
}
