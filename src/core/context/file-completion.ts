import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ignore from "ignore";
import { isInsideFolder } from "../config/inside-folder.js";
import { hasControlOrHidden } from "../policy/sanitize-terminal.js";
import { isSecretFile } from "./secret-files.js";

/** The most names Tab offers for one folder. */
const MAX_NAMES = 200;
/** Never offered: what no one mentions by hand, and what would only be slow to list. */
const NEVER_OFFERED = new Set([".git", "node_modules", ".mcpterm"]);

/**
 * The `@path` words Tab may complete `word` (`@src/ma`) to: the entries of that folder of the
 * working folder whose names start with what was typed, folders with a trailing `/` so Tab goes
 * on into them. Hidden names only once a `.` is typed; what the root .gitignore ignores, secrets
 * files, links that lead out, names with spaces (a mention ends at a space) and names holding a
 * control or hidden character (the prompt shows and sends them stripped, a name no file has)
 * are left out.
 */
export function fileCompletions(cwd: string, word: string): string[] {
  if (!word.startsWith("@") || word.includes(":")) return [];
  const typed = word.slice(1);
  if (path.isAbsolute(typed) || typed.startsWith("~") || typed.split("/").includes("..")) return [];
  const slash = typed.lastIndexOf("/");
  const folder = typed.slice(0, slash + 1);
  const prefix = typed.slice(slash + 1);
  const dir = path.resolve(cwd, folder);
  if (!isInsideFolder(dir, cwd)) return [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const ignored = gitignore(cwd);
  const words: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const { name } = entry;
    if (!name.startsWith(prefix) || /\s/.test(name) || NEVER_OFFERED.has(name) || hasControlOrHidden(name))
      continue;
    if (name.startsWith(".") && !prefix.startsWith(".")) continue;
    const relative = `${folder}${name}`;
    // A link that leads out of the folder would only be refused when mentioned.
    if (entry.isSymbolicLink() && !isInsideFolder(path.join(dir, name), cwd)) continue;
    const isDir = entry.isDirectory() || (entry.isSymbolicLink() && isFolder(path.join(dir, name)));
    // The ignore rules take paths as git writes them: "./a" is "a".
    const key = path.posix.normalize(relative);
    if (ignored.ignores(isDir ? `${key}/` : key) || (!isDir && isSecretFile(key))) continue;
    words.push(`@${relative}${isDir ? "/" : ""}`);
    if (words.length >= MAX_NAMES) break;
  }
  return words;
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function gitignore(cwd: string): ReturnType<typeof ignore> {
  const rules = ignore();
  try {
    const file = path.join(cwd, ".gitignore");
    // Read only a regular file: a named pipe would block the TUI's every key.
    if (statSync(file).isFile()) rules.add(readFileSync(file, "utf8"));
  } catch {
    // No .gitignore: nothing more is left out.
  }
  return rules;
}
