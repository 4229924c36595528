import { writeSync } from "node:fs";

/**
 * What one turn's entries come to: text to write now, or (when part of it waits on an
 * asynchronous check) the text that may be written now and the exact text once checked.
 */
export type Rendered = string | { now: string; checked: Promise<string> };

/**
 * Appends to an open file what one event-loop turn made, in one write at the end of that turn:
 * whoever makes an entry pays for a push, and rendering it (serializing, redacting) and the
 * write happen after the work that made it, once per turn instead of once per entry. The write
 * is queued with setImmediate, which Node runs before it polls for I/O again, so nothing made is
 * left unwritten while the process waits for anything: a SIGKILL loses at most the entries of the
 * turn it strikes, made a moment before. Process exit and a crash (an uncaught exception, an
 * unhandled rejection) write what is pending before the process ends.
 *
 * A turn whose rendering waits on a check (the full secret rules, see checkedLines) is written
 * when the check is done, and the turns after it wait behind it, so the file keeps the order
 * things happened in; a SIGKILL then loses those turns too (the check takes milliseconds). At
 * exit, or on close, a turn still waiting is written as it may be written now.
 */
export class TurnEndWriter<T> {
  private pending: T[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  /** Rendered turns waiting on a check, oldest first, each with its checked text once it came. */
  private held: Array<{ now: string; text?: string }> = [];
  private heldSettled: Promise<void> = Promise.resolve();
  /** A write that failed, told to whoever adds or closes next (as a write in place would have been). */
  private failure: Error | undefined;
  private closed = false;

  constructor(
    private readonly fd: number,
    private readonly render: (entries: readonly T[]) => Rendered,
    /** Told of the first failure, after which nothing more is written; else it is thrown at the next add. */
    private readonly onFailure?: (error: Error) => void,
  ) {
    process.on("exit", this.flushAll);
    process.on("uncaughtExceptionMonitor", this.flushAll);
  }

  add(entry: T): void {
    this.throwFailure();
    if (this.closed) return;
    this.pending.push(entry);
    this.scheduled ??= setImmediate(this.flush);
  }

  /** Renders what is pending now and writes it, or holds it behind a check. Bound: setImmediate calls it. */
  readonly flush = (): void => {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.pending.length === 0 || this.failure !== undefined) return;
    const entries = this.pending;
    this.pending = [];
    let rendered: Rendered;
    try {
      rendered = this.render(entries);
    } catch (error) {
      this.fail(error);
      return;
    }
    if (typeof rendered === "string") {
      if (this.held.length === 0) this.write(rendered);
      else this.held.push({ now: rendered, text: rendered });
      return;
    }
    const turn: { now: string; text?: string } = { now: rendered.now };
    this.held.push(turn);
    const checked = rendered.checked.then(
      (text) => {
        turn.text = text;
      },
      // A check that failed leaves the text that may be written now.
      () => {
        turn.text = turn.now;
      },
    );
    this.heldSettled = Promise.all([this.heldSettled, checked]).then(() => undefined);
    void checked.then(this.release);
  };

  /** Writes the held turns whose checks are done, in order, up to the first still waiting. */
  private readonly release = (): void => {
    while (this.held[0]?.text !== undefined) {
      const turn = this.held.shift();
      if (turn?.text !== undefined) this.write(turn.text);
    }
  };

  /**
   * Everything pending and held, written now: a turn still waiting on its check as it may be
   * written now. The process hooks' listener (bound): nothing can be waited for there.
   */
  private readonly flushAll = (): void => {
    this.flush();
    for (const turn of this.held.splice(0)) this.write(turn.text ?? turn.now);
  };

  /** Resolves when every turn rendered so far has had its check (then its text is written). */
  async settled(): Promise<void> {
    this.flush();
    await this.heldSettled;
    this.release();
  }

  /** Writes what is pending and stops; the file stays open (it is its owner's to close). */
  close(): void {
    this.flushAll();
    this.closed = true;
    process.off("exit", this.flushAll);
    process.off("uncaughtExceptionMonitor", this.flushAll);
    this.throwFailure();
  }

  private write(text: string): void {
    if (this.failure !== undefined || this.closed) return;
    try {
      writeSync(this.fd, text);
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    const failure = error instanceof Error ? error : new Error(String(error));
    // Only the filesystem's refusals (ENOSPC, EIO…) are told and lived with; a bug is thrown.
    if (!this.onFailure || typeof (error as NodeJS.ErrnoException).code !== "string") {
      this.failure = failure;
      return;
    }
    this.closed = true;
    this.onFailure(failure);
  }

  private throwFailure(): void {
    if (this.failure === undefined) return;
    const failure = this.failure;
    this.failure = undefined;
    this.closed = true;
    throw failure;
  }
}
