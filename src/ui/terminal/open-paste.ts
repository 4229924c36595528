/**
 * A bracketed paste whose end never comes. Ink holds everything after `ESC[200~` until it reads
 * `ESC[201~`: if the terminal never sends the end (a paste cut off, a terminal that lost it),
 * every key after it, Enter and Ctrl+D included, goes into a paste nobody sees, and the person
 * can neither type nor leave. So a paste is ended for them after OPEN_PASTE_SILENCE_MS without
 * a byte, or at once when they press Ctrl+C or Ctrl+D alone (taken as that, nothing more): what
 * came shows in the prompt as pasted text, and the keys work again.
 *
 * A paste ended that way may only have stalled (a slow link): its rest can still come, with the
 * real end after it. Until that end, what comes is given to Ink as pasted text too, never as
 * typing: a line break in it must not send the prompt or answer an approval panel. A read that
 * is one key (a letter, Enter, an arrow, Ctrl+C) is the person typing, and keys are keys again.
 * A paste's rest comes as many characters at once, as a person's keys come one by one.
 */

export const PASTE_START = "\u001b[200~";
export const PASTE_END = "\u001b[201~";
/**
 * How long a paste may stay open with nothing arriving, and how long after it was ended for the
 * person its rest is still taken as pasted. A terminal sends a paste as fast as it can be read,
 * so the gaps within one are milliseconds, even over ssh; a second is a paste whose end was lost,
 * and not so long that a person gives up on the prompt.
 */
export const OPEN_PASTE_SILENCE_MS = 1000;
/** Reads that are a person pressing a key, never a paste's text: Ctrl+C, Ctrl+D. */
const LONE_KEYS = new Set(["\u0003", "\u0004"]);
/**
 * A read that is one key: Escape, a CSI or SS3 sequence (an arrow, kitty's `ESC[97u`), Alt with
 * a character, or one character (a letter, Enter, Backspace, a control key).
 */
// eslint-disable-next-line no-control-regex -- an escape sequence is what it matches.
const ONE_ESCAPE_KEY = /^\u001b(?:\[[0-9;:<=>?]*[ -/]*[@-~]|O[@-~]|[^\u001b])?$/u;
/** Enough of the last read to find a marker cut in two by the end of a read. */
const MARKER_TAIL = PASTE_START.length - 1;

type PasteState =
  /** No paste open: keys are keys. */
  | "typing"
  /** A paste began and its end has not come: Ink holds what comes. */
  | "open"
  /** A paste was ended for the person; what comes before its real end is its rest. */
  | "rest";

/** Pure, over the keys Ink is given, read by read; the caller keeps the clock (see quiet). */
export class OpenPaste {
  private state: PasteState = "typing";
  /** The last characters given to Ink, to find a marker cut in two by the end of a read. */
  private tail = "";
  /** While taking a paste's rest: the end of a read that may be the start of a marker. */
  private held = "";

  /** Whether a silence now would change anything: a paste is open, or a cut marker is held. */
  get waiting(): boolean {
    return this.state === "open" || this.held !== "";
  }

  /** `keys`, the next read, as Ink should read them. */
  see(keys: string): string {
    // The person's way out, taken as that alone: the key would clear what was pasted, or exit.
    if (this.state === "open" && LONE_KEYS.has(keys)) return this.endForThem();
    if (this.state !== "rest") return this.given(keys);
    if (isOneKey(keys)) {
      this.state = "typing";
      const held = this.held;
      this.held = "";
      return this.given(`${held}${keys}`);
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
   * What to give Ink after a silence: the end of an open paste (its rest may still come), or
   * what was held of a marker that was not one, as pasted text; "" when there is nothing.
   */
  quiet(): string {
    if (this.state === "open") return this.endForThem();
    const held = this.held;
    this.held = "";
    return this.given(pasted(held));
  }

  private endForThem(): string {
    this.state = "rest";
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

function isOneKey(keys: string): boolean {
  const first = keys.codePointAt(0);
  return (
    ONE_ESCAPE_KEY.test(keys) || (first !== undefined && String.fromCodePoint(first).length === keys.length)
  );
}
