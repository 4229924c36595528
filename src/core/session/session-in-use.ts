import { randomBytes } from "node:crypto";
import path from "node:path";
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { processRuns } from "../process-runs.js";

/** A pid and a line break: a marker longer than this is no marker of mcpterm's. */
const MARKER_MAX_BYTES = 24;
/**
 * How a marker is opened, to read or to write: never through a link, and never waiting (a named
 * pipe a cloned repository put in its place would hold the process forever). What is opened is
 * then used only if it is a regular file with no other name (a hard link elsewhere).
 */
const SAFE_OPEN = constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Which saved sessions a running mcpterm has open: beside `<id>.jsonl`, `<id>.open` holds the
 * pid of the process writing it, from when it opens the file until it closes it. Pruning the
 * oldest sessions (one `-p` run starts a new one) must not delete the file of a TUI left open
 * for a day, whose file is the oldest of all: its turns would go to a deleted file, and "Saved
 * as session …" would name nothing. A marker whose process is gone (a crash, a kill), or that is
 * anything but a small regular file of one name, does not hold its session.
 */
export function markInUse(sessionFile: string): () => void {
  const claim = claimInUse(sessionFile);
  return "unmark" in claim ? claim.unmark : () => undefined;
}

/**
 * The markers this process holds, each with how many claims hold it: a TUI's /resume of the
 * session it is in claims it again before the replaced conversation lets go of it, and the
 * marker must outlast both.
 */
const held = new Map<string, number>();

/**
 * Marks the session as this process's (markInUse), unless another running mcpterm holds it: then
 * says which. The marker is made with O_EXCL, so of two runs asking at once one gets it; one left
 * by a process that is gone, or by this one, is taken over. Each claim is let go once (`unmark`),
 * and the marker goes with the last of this process's claims on it, or as the process exits.
 */
export function claimInUse(sessionFile: string): { unmark: () => void } | { heldBy: number } {
  const marker = markerOf(sessionFile);
  const claims = held.get(marker);
  if (claims === undefined || markerPid(marker) !== process.pid) {
    const made = makeMarker(marker, sessionFile);
    if (made !== "made") return made === "unmarked" ? { unmark: () => undefined } : { heldBy: made };
  }
  held.set(marker, (claims ?? 0) + 1);
  if (held.size === 1 && claims === undefined) process.once("exit", letGoOfAll);
  let released = false;
  return {
    unmark: () => {
      if (released) return;
      released = true;
      const left = (held.get(marker) ?? 1) - 1;
      if (left > 0) held.set(marker, left);
      else letGo(marker);
    },
  };
}

/** Writes this process's pid into the marker: "made", the pid of the mcpterm that holds it, or "unmarked". */
function makeMarker(marker: string, sessionFile: string): "made" | "unmarked" | number {
  let fd: number;
  try {
    fd = openSync(marker, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | SAFE_OPEN, 0o600);
  } catch (error) {
    // Unmarked, the session is pruned as before: the marker is a courtesy to other processes.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return "unmarked";
    const heldBy = settledWriter(sessionFile) ?? takeOver(marker);
    if (heldBy !== undefined) return heldBy;
    try {
      fd = openSync(marker, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | SAFE_OPEN, 0o600);
    } catch {
      // Another run made it first.
      return settledWriter(sessionFile) ?? "unmarked";
    }
  }
  try {
    if (!isPlainFile(fd)) return "unmarked";
    ftruncateSync(fd, 0);
    writeSync(fd, `${process.pid}\n`);
    return "made";
  } catch {
    return "unmarked";
  } finally {
    closeSync(fd);
  }
}

/** How long a marker just made may stand empty, its pid not yet written, before it is judged. */
const MARKER_WRITE_WAIT_MS = 50;

/**
 * writerElsewhere, waiting a moment for a marker that is there but holds no pid yet: another run
 * made it an instant ago and is writing its pid into it.
 */
function settledWriter(sessionFile: string): number | undefined {
  waitWhileEmpty(markerOf(sessionFile));
  return writerElsewhere(sessionFile);
}

/** Waits (at most MARKER_WRITE_WAIT_MS) while `marker` is an empty file, as one is while its maker writes its pid. */
function waitWhileEmpty(marker: string): void {
  const until = Date.now() + MARKER_WRITE_WAIT_MS;
  while (isEmptyFile(marker) && Date.now() < until) Atomics.wait(PAUSE, 0, 0, 2);
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

function isEmptyFile(file: string): boolean {
  try {
    const info = lstatSync(file);
    return info.isFile() && info.size === 0;
  } catch {
    return false;
  }
}

/**
 * Moves a marker found stale out of the way, so a new one can be made with O_EXCL: of two runs
 * that found it stale, only one moves it. One that finds it moved and made anew by the other
 * (a running mcpterm's, by the time it looks) puts it back, unless a third made one meanwhile,
 * and says whose it is.
 */
function takeOver(marker: string): number | undefined {
  const aside = `${marker}.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    renameSync(marker, aside);
  } catch {
    return undefined;
  }
  // Moved while its maker was still writing its pid: read once it is written.
  waitWhileEmpty(aside);
  const pid = markerPid(aside);
  const live = pid !== undefined && pid !== process.pid && runsMcpterm(pid);
  if (live) {
    try {
      linkSync(aside, marker);
    } catch {
      // A third run made one meanwhile: it holds the session now.
    }
  }
  rmSync(aside, { force: true });
  return live ? pid : undefined;
}

/** Removes the marker while it is still this process's: another may have taken it over since. */
function letGo(marker: string): void {
  held.delete(marker);
  if (held.size === 0) process.off("exit", letGoOfAll);
  if (markerPid(marker) === process.pid) rmSync(marker, { force: true });
}

function letGoOfAll(): void {
  for (const marker of [...held.keys()]) letGo(marker);
}

/**
 * A found session's claim, kept until what continues it (its saver) takes it over, or until it is
 * dropped unused (a TUI's pending resume replaced): it is let go exactly once either way.
 */
const pendingClaims = new WeakMap<object, () => void>();

/** Keeps `unmark` as the claim on `session`, for takeClaim. */
export function holdClaim(session: object, unmark: () => void): void {
  pendingClaims.set(session, unmark);
}

/** The claim held on `session` (holdClaim), now the caller's to let go; undefined when none is. */
export function takeClaim(session: object): (() => void) | undefined {
  const unmark = pendingClaims.get(session);
  pendingClaims.delete(session);
  return unmark;
}

/** Whether another running process has `sessionFile` open (see markInUse). */
export function inUseElsewhere(sessionFile: string): boolean {
  return writerElsewhere(sessionFile) !== undefined;
}

/** The pid of another running mcpterm writing the session, if one is. */
export function writerElsewhere(sessionFile: string): number | undefined {
  const pid = markerPid(markerOf(sessionFile));
  return pid !== undefined && pid !== process.pid && runsMcpterm(pid) ? pid : undefined;
}

/** The marker of a session's file, for a message that tells the person to remove a stale one. */
export function markerOf(sessionFile: string): string {
  return sessionFile.replace(/\.jsonl$/, ".open");
}

/**
 * Whether the pid runs, and (where /proc says what it runs) runs mcpterm: a marker left by a
 * SIGKILL names a pid the system may give to any process since.
 */
function runsMcpterm(pid: number): boolean {
  if (!processRuns(pid)) return false;
  let words: string[];
  try {
    words = readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0");
  } catch {
    return true;
  }
  // The program itself (`mcpterm`), or the script node runs (its first word after node's own
  // options): not any word (`git log -- src/cli.js` is no mcpterm).
  const names = new Set(["mcpterm", "cli.js", path.basename(process.argv[1] ?? "mcpterm")]);
  const [program = "", ...rest] = words;
  const script = rest.find((word) => !word.startsWith("-")) ?? "";
  return names.has(path.basename(program)) || names.has(path.basename(script));
}

/** Removes a pruned session's marker, left by a process that is gone. */
export function forgetMarker(sessionFile: string): void {
  rmSync(markerOf(sessionFile), { force: true });
}

/** The pid a marker holds, read as a few bytes of a regular file; undefined for anything else. */
function markerPid(marker: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(marker, constants.O_RDONLY | SAFE_OPEN);
  } catch {
    return undefined;
  }
  try {
    if (!isPlainFile(fd)) return undefined;
    const bytes = Buffer.alloc(MARKER_MAX_BYTES + 1);
    const read = readSync(fd, bytes, 0, bytes.length, 0);
    const text = bytes.subarray(0, read).toString("latin1");
    if (read > MARKER_MAX_BYTES || !/^[1-9]\d{0,9}\n?$/.test(text)) return undefined;
    return Number.parseInt(text, 10);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function isPlainFile(fd: number): boolean {
  const info = fstatSync(fd);
  return info.isFile() && info.nlink === 1;
}
