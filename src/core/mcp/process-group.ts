/**
 * Stdio servers are started as leaders of their own process group, so that closing one takes
 * everything it started with it (servers launched through `npx`, `sh -c` or `uv run` spawn
 * children that would otherwise outlive us).
 */

/** True while any process of the group led by `pid` is still alive. */
export function processGroupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    // EPERM means the group exists but belongs to someone else: still alive.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function signalProcessGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Waits until the group is gone or `timeoutMs` passed; resolves true when it is gone. */
export async function waitForGroupExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processGroupAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/**
 * Last-resort cleanup for `process.on("exit")`, which only runs synchronous code: every group
 * still registered is killed outright.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function registerProcessGroup(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const group of liveGroups) signalProcessGroup(group, "SIGKILL");
    });
  }
}

export function unregisterProcessGroup(pid: number): void {
  liveGroups.delete(pid);
}
