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
    this.partial = parts.pop() ?? "";
    for (const line of parts) this.push(line);
    return parts;
  }

  push(line: string): void {
    this.lines.push(line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line);
    if (this.lines.length > this.maxLines) {
      this.lines.shift();
      this.dropped += 1;
    }
  }

  /** Kept lines, oldest first, plus any partial line still waiting for its newline. */
  snapshot(): string[] {
    return this.partial ? [...this.lines, this.partial] : [...this.lines];
  }

  /** How many complete lines were ever written: a mark to read on from with `since`. */
  get written(): number {
    return this.lines.length + this.dropped;
  }

  /** The kept lines written after `mark` (a `written` count), plus any partial line. */
  since(mark: number): string[] {
    return this.snapshot().slice(Math.max(0, mark - this.dropped));
  }

  tail(count: number): string[] {
    return this.snapshot().slice(-count);
  }

  get droppedCount(): number {
    return this.dropped;
  }
}
