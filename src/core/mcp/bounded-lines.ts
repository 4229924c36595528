/**
 * Keeps the last `maxLines` lines written to a stream (a server's stderr, or the non-protocol
 * lines it wrote to stdout), so a chatty or broken server cannot grow memory without bound.
 */
export class BoundedLines {
  private readonly lines: string[] = [];
  private partial = "";
  private dropped = 0;

  constructor(
    private readonly maxLines = 500,
    private readonly maxLineLength = 2000,
  ) {}

  /** Appends raw text; complete lines are kept, a trailing partial line waits for its newline. */
  write(text: string): string[] {
    const parts = (this.partial + text).split(/\r?\n/);
    // A line that never ends (megabytes with no newline) is kept only as far as it is shown.
    this.partial = (parts.pop() ?? "").slice(0, this.maxLineLength + 1);
    for (const line of parts) this.push(line);
    return parts;
  }

  push(line: string): void {
    this.lines.push(this.cut(line));
    if (this.lines.length > this.maxLines) {
      this.lines.shift();
      this.dropped += 1;
    }
  }

  /** Kept lines, oldest first, plus any partial line still waiting for its newline (cut as lines are). */
  snapshot(): string[] {
    return this.partial ? [...this.lines, this.cut(this.partial)] : [...this.lines];
  }

  /**
   * A mark to read on from with `since`: the lines ever begun. A partial line counts, so what
   * completes it later is not read as written after the mark.
   */
  get written(): number {
    return this.lines.length + this.dropped + (this.partial ? 1 : 0);
  }

  /** The kept lines written after `mark` (a `written` count), plus any partial line. */
  since(mark: number): string[] {
    return this.snapshot().slice(Math.max(0, mark - this.dropped));
  }

  private cut(line: string): string {
    return line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line;
  }

  tail(count: number): string[] {
    return this.snapshot().slice(-count);
  }

  get droppedCount(): number {
    return this.dropped;
  }
}
