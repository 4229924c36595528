import { closeSync, constants, openSync, readFileSync, rmSync, writeSync } from "node:fs";

/**
 * Which saved sessions a running mcpterm has open: beside `<id>.jsonl`, `<id>.open` holds the
 * pid of the process writing it, from when it opens the file until it closes it. Pruning the
 * oldest sessions (one `-p` run starts a new one) must not delete the file of a TUI left open
 * for a day, whose file is the oldest of all: its turns would go to a deleted file, and "Saved
 * as session …" would name nothing. A marker whose process is gone (a crash, a kill) does not
 * hold its session.
 */
export function markInUse(sessionFile: string): () => void {
  const marker = markerOf(sessionFile);
  try {
    // Never through a link a cloned repository may have put there.
    const fd = openSync(
      marker,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Unmarked, the session is pruned as before: the marker is a courtesy to other processes.
    return () => undefined;
  }
  const unmark = (): void => {
    process.off("exit", unmark);
    rmSync(marker, { force: true });
  };
  process.once("exit", unmark);
  return unmark;
}

/** Whether another running process has `sessionFile` open (see markInUse). */
export function inUseElsewhere(sessionFile: string): boolean {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(markerOf(sessionFile), "utf8"), 10);
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user's process.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes a pruned session's marker, left by a process that is gone. */
export function forgetMarker(sessionFile: string): void {
  rmSync(markerOf(sessionFile), { force: true });
}

function markerOf(sessionFile: string): string {
  return sessionFile.replace(/\.jsonl$/, ".open");
}
