/**
 * A bracketed paste whose end never comes. Ink holds everything after `ESC[200~` until it reads
 * `ESC[201~`: if the terminal never sends the end (a paste cut off, a terminal that lost it),
 * every key after it, Enter and Ctrl+D included, goes into a paste nobody sees, and the person
 * can neither type nor leave. So a paste is ended for them after OPEN_PASTE_SILENCE_MS without
 * a byte, or at once when they press Ctrl+C or Ctrl+D alone (taken as that, nothing more): what
 * came shows in the prompt as pasted text.
 *
 * The paste may only have stalled (a slow link, a retransmission): its rest can still come, in
 * any number of reads, before its real end. Nothing tells that rest from keys, and a line break
 * of it taken as Enter would send the prompt or answer an approval panel. So until the real end
 * comes, the end is "owed", and every read is given to Ink as pasted text. The person, told so
 * (the caller's notice), types as usual again after pressing Esc alone (which does nothing
 * else), or Ctrl+C or Ctrl+D alone (which do what they always do).
 */

export const PASTE_START = "\u001b[200~";
export const PASTE_END = "\u001b[201~";
/**
 * How long a paste may stay open with nothing arriving. A terminal sends a paste as fast as it
 * can be read, so the gaps within one are milliseconds, even over ssh; a second is a paste whose
 * end was lost, and not so long that a person gives up on the prompt.
 */
export const OPEN_PASTE_SILENCE_MS = 1000;
const ESC = "\u001b";
/** Reads that are a person pressing a key, never a paste's text: Ctrl+C, Ctrl+D. */
const LONE_KEYS = new Set(["\u0003", "\u0004"]);
/** Enough of the last read to find a marker cut in two by the end of a read. */
const MARKER_TAIL = PASTE_START.length - 1;

type PasteState =
  /** No paste open: keys are keys. */
  | "typing"
  /** A paste began and its end has not come: Ink holds what comes. */
  | "open"
  /** A paste was ended for the person, and its real end has not come. */
  | "owed";

/** Pure, over the keys Ink is given, read by read; the caller keeps the clock (see quiet). */
export class OpenPaste {
  private state: PasteState = "typing";
  /** The last characters given to Ink, to find a marker cut in two by the end of a read. */
  private tail = "";
  /** While an end is owed: the end of a read that may be the start of a marker. */
  private held = "";

  /** Whether a silence now would change anything: a paste is open, or a cut marker is held. */
  get waiting(): boolean {
    return this.state === "open" || this.held !== "";
  }

  /** Whether a paste was ended for the person and its real end has not come. */
  get owed(): boolean {
    return this.state === "owed";
  }

  /** `keys`, the next read, as Ink should read them. */
  see(read: string): string {
    // Escape, then a paste, in one read: Ink takes `ESC ESC[200~` for one key, and would type
    // the paste, its line breaks as Enter. The paste matters; the Escape is dropped.
    const keys = read.replaceAll(`${ESC}${PASTE_START}`, PASTE_START);
    if (this.state === "open" && LONE_KEYS.has(keys)) return this.endForThem();
    if (this.state !== "owed") return this.given(keys);
    if (keys === ESC || LONE_KEYS.has(keys)) {
      const held = pasted(this.held);
      this.held = "";
      this.state = "typing";
      // Escape only ends the owed state; Ctrl+C and Ctrl+D go on as keys.
      return this.given(keys === ESC ? held : `${held}${keys}`);
    }
    const text = this.held + keys;
    this.held = "";
    const end = text.indexOf(PASTE_END);
    const start = text.indexOf(PASTE_START);
    // The rest with its end: one paste of its own, and whatever follows the end as it is.
    if (end !== -1 && (start === -1 || end < start)) {
      this.state = "typing";
      return this.given(`${PASTE_START}${text}`);
    }
    // A new paste: the rest before it as pasted text, the new one as it comes.
    if (start !== -1) {
      this.state = "typing";
      return this.given(`${pasted(text.slice(0, start))}${text.slice(start)}`);
    }
    const cut = markerStartAtEnd(text);
    this.held = text.slice(text.length - cut);
    return this.given(pasted(text.slice(0, text.length - cut)));
  }

  /**
   * What to give Ink after a silence: the end of an open paste, or what was held of a marker
   * that was not one, as pasted text; "" when there is nothing.
   */
  quiet(): string {
    if (this.state === "open") return this.endForThem();
    const held = this.held;
    this.held = "";
    return this.given(pasted(held));
  }

  private endForThem(): string {
    this.state = "owed";
    this.tail = "";
    return PASTE_END;
  }

  /** Keeps track of what Ink was given: a paste is open after it when its last marker is a start. */
  private given(keys: string): string {
    const text = this.tail + keys;
    const start = text.lastIndexOf(PASTE_START);
    const end = text.lastIndexOf(PASTE_END);
    if (start > end) this.state = "open";
    else if (end > start && this.state === "open") this.state = "typing";
    this.tail = text.slice(-MARKER_TAIL);
    return keys;
  }
}

/** `text` as a bracketed paste; nothing when it is empty. */
function pasted(text: string): string {
  return text === "" ? "" : `${PASTE_START}${text}${PASTE_END}`;
}

/** How many characters at the end of `text` may be the start of a paste marker cut off by the read. */
function markerStartAtEnd(text: string): number {
  for (let length = Math.min(MARKER_TAIL, text.length); length > 0; length -= 1) {
    const end = text.slice(-length);
    if (PASTE_START.startsWith(end) || PASTE_END.startsWith(end)) return length;
  }
  return 0;
}
