/**
 * A call's silence limit: it fires `ms` after the call started or last showed life (progress),
 * and does not run at all while the server waits on the person (a form or a sampling request
 * it sent during the call), since a server cannot answer while it is being answered.
 */
export class SilenceTimer {
  private timer: NodeJS.Timeout | undefined;
  private held = false;

  constructor(
    private readonly ms: number,
    private readonly onSilence: () => void,
  ) {}

  /** (Re)starts the limit, unless the server is waiting on the person. */
  restart(): void {
    clearTimeout(this.timer);
    this.timer = this.held ? undefined : setTimeout(this.onSilence, this.ms);
  }

  /** The server waits on the person (true) or no longer does (false, and the limit starts over). */
  hold(held: boolean): void {
    this.held = held;
    this.restart();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
