import { chmodSync, lstatSync, mkdirSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConfigError, errorMessage } from "../errors.js";

/** The folder in a project where mcpterm keeps its traces, saved sessions and index. */
export const PROJECT_STATE_FOLDER = ".mcpterm";

/** `*` ignores the folder's whole content, this file included, so `git add .` leaves it out. */
const STATE_GITIGNORE =
  "# Made by mcpterm: its traces, saved sessions and knowledge-base index stay out of git.\n*\n";

/**
 * Makes `folder` (inside `cwd`, e.g. `<cwd>/.mcpterm/sessions`) and every level above it up to
 * `cwd`, each private (0700), and returns it. Each level is looked at before anything is made or
 * chmodded under it: a cloned repository may bring its own `.mcpterm`, and one that is a symlink
 * (or holds one) would have traces and sessions written — and folders made and chmodded —
 * wherever it leads. A `.mcpterm` made here gets a `.gitignore`, so none of it is committed by
 * accident; one that was already there is left as it is.
 */
export function ensureProjectStateFolder(cwd: string, folder: string): string {
  const base = path.resolve(cwd);
  const target = path.resolve(base, folder);
  const relative = path.relative(base, target);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) {
    throw new ConfigError(
      `${target} is not inside the working folder ${base}; mcpterm keeps its state only there.`,
    );
  }
  let current = base;
  for (const part of relative.split(path.sep)) {
    current = path.join(current, part);
    const made = makeLevel(current, base);
    if (made && current === path.join(base, PROJECT_STATE_FOLDER)) writeStateGitignore(current);
  }
  return target;
}

/**
 * The new state folder's .gitignore. Where it cannot be written whole (a full disk), the folder is
 * taken back, so the next run makes it again with its .gitignore instead of finding one without,
 * whose traces and sessions `git add .` would commit; this run stops with the reason.
 */
export function writeStateGitignore(
  folder: string,
  // The filesystem's own write; a test hands one that fails as a full disk does.
  write: (file: string, text: string) => void = (file, text) =>
    writeFileSync(file, text, { flag: "wx", mode: 0o600 }),
): void {
  const file = path.join(folder, ".gitignore");
  try {
    write(file, STATE_GITIGNORE);
  } catch (error) {
    rmSync(file, { force: true });
    rmdirSync(folder);
    throw new ConfigError(
      `${PROJECT_STATE_FOLDER}/.gitignore could not be written in ${path.dirname(folder)} (${errorMessage(error)}); mcpterm keeps its traces and sessions out of git with it: free some space (or fix the folder's permissions) and run again.`,
    );
  }
}

/** One level: made when missing (true), refused when a link or not a folder, else made private. */
function makeLevel(folder: string, cwd: string): boolean {
  const shown = path.relative(cwd, folder);
  const info = lstatOrMissing(folder);
  if (info === undefined) {
    mkdirSync(folder, { mode: 0o700 });
    return true;
  }
  if (info.isSymbolicLink()) {
    throw new ConfigError(
      `${shown} is a symlink; mcpterm does not write its traces, sessions or index through a link a project may have brought — remove the link (or run mcpterm from another folder).`,
    );
  }
  if (!info.isDirectory()) {
    throw new ConfigError(
      `${shown} is a file, not a folder; mcpterm keeps its state there — move the file away.`,
    );
  }
  // Private even when it was there before (made by hand, or by a looser umask's tool); one
  // that belongs to someone else cannot be changed, and is used as it is.
  try {
    chmodSync(folder, 0o700);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") throw error;
  }
  return false;
}

function lstatOrMissing(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
