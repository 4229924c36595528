/** Past this much text without a line break, text is released at a space instead. */
const LONG_LINE = 400;
/** How much of a long line stays held back, so a key and its value are redacted together. */
const HOLD_BACK = 64;

/**
 * Redacts streamed text, which arrives a few characters at a time: redacting each piece alone
 * would never see a whole key. Text is released a line at a time (a long line at a space well
 * behind its end), never in the middle of a word, and a PEM block is held until it closes.
 */
export class StreamRedactor {
  private pending = "";

  constructor(private readonly redact: (text: string) => string) {}

  /** Adds streamed text; returns what is now safe to show (often ""). */
  push(delta: string): string {
    this.pending += delta;
    const cut = this.cutPoint();
    if (cut <= 0) return "";
    const ready = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return this.redact(ready);
  }

  /** The rest, at the end of the stream. */
  flush(): string {
    const rest = this.pending;
    this.pending = "";
    return rest ? this.redact(rest) : "";
  }

  private cutPoint(): number {
    const text = this.pending;
    const begin = text.lastIndexOf("-----BEGIN ");
    // Hold from the BEGIN line until its whole END line has arrived.
    if (begin !== -1 && !/-----END [A-Z ]+-----/.test(text.slice(begin))) return begin;
    const newline = text.lastIndexOf("\n");
    if (newline !== -1) return newline + 1;
    if (text.length < LONG_LINE) return 0;
    return text.lastIndexOf(" ", text.length - HOLD_BACK) + 1;
  }
}
