import path from "node:path";
import { readRegularFile } from "../files/regular-file.js";
import ignore, { type Ignore } from "ignore";

/** Ignore files read from the root of the knowledge-base folder, in this order. */
export const IGNORE_FILES = [".gitignore", ".mcptermignore"] as const;

/** Folders nobody keeps notes in; hidden entries (".git", ".mcpterm", ...) are skipped too. */
const ALWAYS_IGNORED = ["node_modules/"];

export async function loadIgnoreRules(dir: string): Promise<Ignore> {
  const rules = ignore().add(ALWAYS_IGNORED);
  for (const name of IGNORE_FILES) {
    try {
      // A named pipe by that name (a repository can bring one) would wait forever.
      rules.add(await readRegularFile(path.join(dir, name), "utf8"));
    } catch {
      // A missing or unreadable ignore file, or one that is not a file, means no extra rules.
    }
  }
  return rules;
}
