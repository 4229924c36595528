import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/**
 * Processes a stdio server started that left its process group: a daemon it put in a session of
 * its own (`setsid`, a double fork) is not stopped with the group, and outlived mcpterm. Each
 * server is started with a tag of its own in its environment, which whatever it starts inherits,
 * and once its group is stopped, every process still carrying the tag is stopped too. Found
 * through /proc (Linux); elsewhere there is nothing to read and none is found. A process that
 * clears its environment, or runs as another user, is not found.
 */
export const SERVER_TAG_VARIABLE = "MCPTERM_SERVER_TAG";

export function newServerTag(): string {
  return randomUUID();
}

/** Pids of live processes, this one aside, whose environment holds one of `tags`, with the tag. */
export function taggedProcesses(tags: readonly string[]): Array<{ pid: number; tag: string }> {
  if (tags.length === 0 || process.platform !== "linux") return [];
  const entries = tags.map((tag) => ({ tag, bytes: Buffer.from(`${SERVER_TAG_VARIABLE}=${tag}`) }));
  const found: Array<{ pid: number; tag: string }> = [];
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${name}/environ`);
    } catch {
      // Gone, or another user's.
      continue;
    }
    const entry = entries.find(({ bytes }) => holdsEntry(environ, bytes));
    if (entry) found.push({ pid, tag: entry.tag });
  }
  return found;
}

/** Whether `environ` (NUL-separated `NAME=value` entries) has `entry` as one of them, whole. */
function holdsEntry(environ: Buffer, entry: Buffer): boolean {
  for (let at = environ.indexOf(entry); at !== -1; at = environ.indexOf(entry, at + 1)) {
    const end = at + entry.length;
    if ((at === 0 || environ[at - 1] === 0) && (end === environ.length || environ[end] === 0)) return true;
  }
  return false;
}

/** Sends `signal` to each process still carrying `tags`; returns how many it was sent to. */
export function signalTagged(tags: readonly string[], signal: NodeJS.Signals): number {
  const found = taggedProcesses(tags);
  for (const { pid } of found) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone since.
    }
  }
  return found.length;
}

/** Stops what still carries `tag`: SIGTERM, up to `graceMs` to go, then SIGKILL. */
export async function stopTagged(tag: string, graceMs: number): Promise<void> {
  if (signalTagged([tag], "SIGTERM") === 0) return;
  const deadline = Date.now() + graceMs;
  while (taggedProcesses([tag]).length > 0) {
    if (Date.now() >= deadline) {
      signalTagged([tag], "SIGKILL");
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
