/**
 * Lets through at most `limit` live notices per key (a server and a kind) in each `windowMs`;
 * the rest are counted, and the next notice let through says how many were held back. A server
 * that logs 20,000 errors or is refused 5,000 times then costs a person a few lines, not a flood.
 */
export class NoticeThrottle {
  private readonly windows = new Map<string, { start: number; shown: number; held: number }>();

  constructor(
    private readonly limit = 5,
    private readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The text to show for this notice (with a count of those held back before it), or undefined to hold it. */
  pass(key: string, text: string): string | undefined {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      const held = window?.held ?? 0;
      window = { start: now, shown: 0, held: 0 };
      this.windows.set(key, window);
      if (held > 0) text = `${text} (${held} more like it were not shown)`;
    }
    if (window.shown >= this.limit) {
      window.held += 1;
      return undefined;
    }
    window.shown += 1;
    return text;
  }
}
