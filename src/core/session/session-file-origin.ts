import { execFile } from "node:child_process";
import { lstat } from "node:fs/promises";
import path from "node:path";

/** How long asking git about one file may take; a slow or stuck git answers "not known". */
const GIT_TIMEOUT_MS = 5_000;

/**
 * Signs that a session file was not written here by mcpterm, one clause each: mcpterm writes
 * sessions 0600 and never adds them to git (`.mcpterm` holds a `.gitignore` of `*`), so a file
 * readable by others, or one git tracks, came with the project. Empty when nothing says so.
 */
export async function signsOfAnotherOrigin(file: string): Promise<string[]> {
  const signs: string[] = [];
  const mode = await lstat(file).then(
    (info) => info.mode & 0o777,
    () => undefined,
  );
  if (mode !== undefined && (mode & 0o077) !== 0)
    signs.push(
      `it is readable by others (mode ${mode.toString(8).padStart(4, "0")}; mcpterm writes sessions 0600)`,
    );
  if (await trackedByGit(file)) signs.push("git tracks it, so it came with the repository");
  return signs;
}

/**
 * Whether the repository around `file` tracks it. The repository may be hostile, so git runs
 * with nothing of its config that starts programs (an fsmonitor hook, hooks); git missing, or
 * no repository there, means not tracked.
 */
function trackedByGit(file: string): Promise<boolean> {
  const args = [
    ...["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "--no-pager"],
    ...["ls-files", "--error-unmatch", "--", path.basename(file)],
  ];
  return new Promise((resolve) => {
    execFile("git", args, { cwd: path.dirname(file), timeout: GIT_TIMEOUT_MS, windowsHide: true }, (error) =>
      resolve(error === null),
    );
  });
}
