import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/** Where a server's command was found, or why it could not be. */
export type CommandLookup = { found: true; path: string } | { found: false; reason: string };

/**
 * Finds the program a stdio server's command names, as spawning it would: a command with a
 * slash relative to the server's folder, a bare name on PATH. Only looks; nothing runs.
 */
export function findCommand(command: string, pathVariable: string | undefined, cwd: string): CommandLookup {
  if (/[\\/]/.test(command)) {
    const file = path.resolve(cwd, command);
    return runnable(file)
      ? { found: true, path: file }
      : { found: false, reason: `${file} ${missingWhy(file)}` };
  }
  const folders = (pathVariable ?? "").split(path.delimiter).filter((folder) => folder !== "");
  const extensions = process.platform === "win32" ? ["", ".exe", ".cmd", ".bat"] : [""];
  for (const folder of folders)
    for (const extension of extensions) {
      const file = path.join(folder, `${command}${extension}`);
      if (runnable(file)) return { found: true, path: file };
    }
  return { found: false, reason: `"${command}" is not on PATH (${folders.length} folder(s) searched)` };
}

function runnable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function missingWhy(file: string): string {
  try {
    return statSync(file).isFile() ? "is not executable" : "is not a file";
  } catch {
    return "does not exist";
  }
}
