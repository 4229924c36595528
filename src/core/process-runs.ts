/**
 * Whether a process with this pid runs, as a lock or a marker file naming it can ask: signal 0
 * tests without sending anything. Another user's process answers EPERM, and runs; only ESRCH says
 * there is none.
 */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
