/**
 * What the earlier processes of a restarted stdio server wrote to stderr and (not JSON-RPC) to
 * stdout. Each process has its own buffers, which a restart replaced: `/mcp logs` lost what led
 * to the restart, or (for the log messages, which are kept) showed both processes as one. Kept
 * here, bounded as the buffers are, with a line that marks where the next process begins.
 */
export class EarlierProcesses {
  private stderr: string[] = [];
  private stdout: string[] = [];

  constructor(private readonly maxLines = 500) {}

  /**
   * Keeps what a stopped process wrote, then the mark. A section the process wrote nothing to
   * gets no mark: every line in it is the new process's.
   */
  keep(stopped: { stderr: readonly string[]; stdout: readonly string[] }, at: Date): void {
    const mark = restartMark(at);
    const kept = (earlier: string[], lines: readonly string[]): string[] =>
      earlier.length + lines.length === 0 ? [] : [...earlier, ...lines, mark].slice(-this.maxLines);
    this.stderr = kept(this.stderr, stopped.stderr);
    this.stdout = kept(this.stdout, stopped.stdout);
  }

  /** The earlier processes' stderr lines, then the running one's. */
  withStderr(current: readonly string[]): string[] {
    return [...this.stderr, ...current];
  }

  /** The earlier processes' stray stdout lines, then the running one's. */
  withStdout(current: readonly string[]): string[] {
    return [...this.stdout, ...current];
  }
}

/** `── restarted at 04:20:11; the new process's lines follow ──`, in local time. */
export function restartMark(at: Date): string {
  const clock = [at.getHours(), at.getMinutes(), at.getSeconds()]
    .map((part) => String(part).padStart(2, "0"))
    .join(":");
  return `── restarted at ${clock}; the new process's lines follow ──`;
}
