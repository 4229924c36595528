/**
 * A bracketed paste whose end never comes. Ink holds everything after `ESC[200~` until it reads
 * `ESC[201~`: if the terminal never sends the end (a paste cut off, a terminal that lost it),
 * every key after it, Enter and Ctrl+D included, goes into a paste nobody sees, and the person
 * can neither type nor leave. After OPEN_PASTE_SILENCE_MS without a byte, the paste is ended
 * for them: what came shows in the prompt as pasted text, and the keys work again.
 */

export const PASTE_START = "\u001b[200~";
export const PASTE_END = "\u001b[201~";
/**
 * How long a paste may stay open with nothing arriving. A terminal sends a paste as fast as it
 * can be read, so the gaps within one are milliseconds, even over ssh; a second is a paste whose
 * end was lost, and not so long that a person gives up on the prompt.
 */
export const OPEN_PASTE_SILENCE_MS = 1000;
/** Enough of the last read to find a marker cut in two by the end of a read. */
const MARKER_TAIL = PASTE_START.length - 1;

/** Pure, over the keys Ink is given, read by read. */
export class OpenPaste {
  private open = false;
  /** The paste was ended here, not by the terminal: its real end may still come. */
  private endedForThem = false;
  private tail = "";

  /** Whether a paste is open after `keys` (the next read's keys follow them). */
  get isOpen(): boolean {
    return this.open;
  }

  /**
   * `keys` as Ink should read them. After a paste ended for the person, the rest of it may still
   * come with its end: the text before that end is made a paste of its own (it would otherwise
   * be typed, its line breaks sending the prompt).
   */
  see(keys: string): string {
    const seen = this.endedForThem && lateEnd(keys) ? `${PASTE_START}${keys}` : keys;
    const text = this.tail + seen;
    const start = text.lastIndexOf(PASTE_START);
    const end = text.lastIndexOf(PASTE_END);
    if (start !== end) {
      this.open = start > end;
      this.endedForThem = false;
    }
    this.tail = text.slice(-MARKER_TAIL);
    return seen;
  }

  /** The end of an open paste, for Ink to read as if the terminal had sent it; "" when none is open. */
  endForThem(): string {
    if (!this.open) return "";
    this.open = false;
    this.endedForThem = true;
    this.tail = "";
    return PASTE_END;
  }
}

/** Whether `keys` hold a paste's end before any start. */
function lateEnd(keys: string): boolean {
  const end = keys.indexOf(PASTE_END);
  const start = keys.indexOf(PASTE_START);
  return end !== -1 && (start === -1 || end < start);
}
