import { writeSync } from "node:fs";

/**
 * Appends to an open file what one event-loop turn made, in one write at the end of that turn:
 * whoever makes an entry pays for a push, and rendering it (serializing, redacting) and the
 * write happen after the work that made it, once per turn instead of once per entry. The write
 * is queued with setImmediate, which Node runs before it polls for I/O again, so nothing made is
 * left unwritten while the process waits for anything: a SIGKILL loses at most the entries of the
 * turn it strikes, made a moment before. Process exit and a crash (an uncaught exception, an
 * unhandled rejection) write what is pending before the process ends.
 */
export class TurnEndWriter<T> {
  private pending: T[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  /** A write that failed, told to whoever adds or closes next (as a write in place would have been). */
  private failure: Error | undefined;
  private closed = false;

  constructor(
    private readonly fd: number,
    private readonly render: (entries: readonly T[]) => string,
  ) {
    process.on("exit", this.flush);
    process.on("uncaughtExceptionMonitor", this.flush);
  }

  add(entry: T): void {
    this.throwFailure();
    if (this.closed) return;
    this.pending.push(entry);
    this.scheduled ??= setImmediate(this.flush);
  }

  /** Writes what is pending now. Bound: it is the process hooks' listener too. */
  readonly flush = (): void => {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.pending.length === 0 || this.failure !== undefined) return;
    const entries = this.pending;
    this.pending = [];
    try {
      writeSync(this.fd, this.render(entries));
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
    }
  };

  /** Writes what is pending and stops; the file stays open (it is its owner's to close). */
  close(): void {
    this.flush();
    this.closed = true;
    process.off("exit", this.flush);
    process.off("uncaughtExceptionMonitor", this.flush);
    this.throwFailure();
  }

  private throwFailure(): void {
    if (this.failure === undefined) return;
    const failure = this.failure;
    this.failure = undefined;
    this.closed = true;
    throw failure;
  }
}
