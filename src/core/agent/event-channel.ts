/**
 * A queue that concurrent tasks push events into and one async generator drains, so calls that
 * run in parallel can still report through the single event stream of a turn.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private waiting: (() => void) | undefined;
  private closed = false;

  push(item: T): void {
    this.buffer.push(item);
    this.wake();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      const next = this.buffer.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}
