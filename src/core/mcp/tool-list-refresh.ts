/**
 * A server's tool-list changes in flight: from the moment it says `tools/list_changed` until the
 * list as of that moment has been fetched. Calls to its tools wait (bounded) for it, so nothing is
 * approved against a definition the server has already replaced.
 */
export class ToolListRefresh {
  private announcedCount = 0;
  private answeredCount = 0;
  private waiters: Array<() => void> = [];

  /** The server announced a change; returns its number, to pass to `answered` once listed. */
  announce(): number {
    this.announcedCount += 1;
    return this.announcedCount;
  }

  /** The list was fetched after announcement `upTo` (or the server went away): those are answered. */
  answered(upTo: number = this.announcedCount): void {
    this.answeredCount = Math.max(this.answeredCount, upTo);
    if (this.pending) return;
    for (const wake of this.waiters.splice(0)) wake();
  }

  get pending(): boolean {
    return this.answeredCount < this.announcedCount;
  }

  /** Resolves true once no change is in flight, false if `ms` pass first. */
  settled(ms: number): Promise<boolean> {
    if (!this.pending) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== wake);
        resolve(false);
      }, ms);
      this.waiters.push(wake);
    });
  }
}
