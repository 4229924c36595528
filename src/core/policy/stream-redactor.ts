import { REDACTED } from "./secret-patterns.js";

/** A run without whitespace longer than this is released in part, so a huge blob cannot stall the screen. */
const LONG_RUN = 512;
/** How much of such a run stays held back: longer than any token the patterns know. */
const LONG_RUN_HOLD = 256;
/**
 * A run that starts like a JWT (`eyJ…`) is held whole up to this long: OIDC and Kubernetes
 * tokens run to several kilobytes, and released in pieces none would match the pattern.
 */
const TOKEN_RUN = 16_384;
/**
 * The longest anything is held back as one secret (a PEM block still open, a `Bearer` or
 * `password =` still running): each piece that arrives reads the whole hold again, so a hold
 * without end (a model writing megabytes after `Bearer `) made the screen wait seconds per
 * 100 KB. Past it, the hold is shown as one [REDACTED] and what continues it is dropped
 * (Swallowing), so a secret longer than this shows no part of itself either.
 */
const LONGEST_HOLD = TOKEN_RUN;

/** What continues a secret too long to hold: a PEM block's key lines, or a token's run. */
type Swallowing = "pem" | "run";
/**
 * A PEM block's whole lines between its first and its last: base64, an encrypted key's headers,
 * blank lines, each ended by a line break or a `\n` escape (a key quoted in JSON).
 */
const KEY_LINES = /^(?:(?:[A-Za-z0-9+/=]*|(?:Proc-Type|DEK-Info|Comment):[^\n\\]*)(?:\r?\n|\\[nr])+)*/;
/** A key line still arriving, up to a `\n` escape cut in two (prose has spaces: a word may be either). */
const KEY_LINE_START = /^(?:[A-Za-z0-9+/=-]*|(?:Proc-Type|DEK-Info|Comment):[^\n\\]*)(?:\\|\r)?$/;
const KEY_LINE_RUN = /^[A-Za-z0-9+/=]*/;
const PEM_FIRST_LINE = /^-----BEGIN [A-Z ]*(?:-----)?/;
const PEM_END = /^-----END [A-Z ]*PRIVATE KEY-----/;

/**
 * Secrets that span more than one word: an assignment such as `password = "two words"` (its
 * value finished or not) and a `Bearer` with its token. One that reaches into the held-back
 * tail is held whole, so the redactor later sees the key and its value together.
 */
const MULTI_WORD = [
  /\b(?:api[_-]?key|apikey|secret|client[_-]?secret|access[_-]?token|auth[_-]?token|password|passwd|pwd)\b["']?\s*(?:[:=]\s*(?:"[^"\n]*"?|'[^'\n]*'?|[^\s"',;]*))?/gi,
  /\b[Bb]earer\s*[A-Za-z0-9._~+/=-]*/g,
  // ~/.netrc, on one line or several: `machine h login me password x`.
  // The trailing space counts, so an entry is held while its next line may still be coming.
  /\b(?:machine(?:\s+\S+(?:\s+login(?:\s+\S+)?)?)?|login(?:\s+\S+)?)(?:\s+password(?:\s+\S*)?)?\s*/g,
];

/**
 * Redacts streamed text, which arrives a few characters at a time: redacting each piece alone
 * would never see a whole key. Everything is released at once except the short tail a secret
 * could still straddle: the last word, a multi-word secret reaching into it (MULTI_WORD), the
 * start of a known secret with spaces, and a PEM block, which is held until it closes.
 */
export class StreamRedactor {
  private pending = "";
  /** Set while what arrives continues a secret that was too long to hold (see LONGEST_HOLD). */
  private swallowing: Swallowing | undefined;

  constructor(
    private readonly redact: (text: string) => string,
    /** Known secret values with whitespace in them: a tail that starts one is held too. */
    private readonly spacedSecrets: readonly string[] = [],
  ) {}

  /** Adds streamed text; returns what is now safe to show (often ""). */
  push(delta: string): string {
    this.pending += delta;
    if (this.swallowing && this.swallow(false)) return "";
    const text = this.pending;
    const held = this.holdStart(text, lastWordStart(text));
    if (text.length - held > LONGEST_HOLD) {
      // Too long to be a secret held whole: shown as one, and what continues it dropped; a PEM
      // block's key lines are read past its first line (an unclosed block may be followed by prose).
      const shown = `${this.redact(text.slice(0, held))}${REDACTED}`;
      const firstLine = PEM_FIRST_LINE.exec(text.slice(held));
      this.swallowing = firstLine ? "pem" : "run";
      this.pending = firstLine ? text.slice(held + firstLine[0].length) : "";
      return this.swallow(false) ? shown : `${shown}${this.push("")}`;
    }
    if (held <= 0) return "";
    this.pending = text.slice(held);
    return this.redact(text.slice(0, held));
  }

  /** The rest, at the end of the stream (or before anything else is reported). */
  flush(): string {
    if (this.swallowing) this.swallow(true);
    this.swallowing = undefined;
    const rest = this.pending;
    this.pending = "";
    return rest ? this.redact(rest) : "";
  }

  /**
   * Drops what continues a secret too long to hold from the start of `pending`: a PEM block's
   * key lines and its END line, or a token's run up to a space. Swallowing ends where something
   * else begins; a line that may still turn out to be a key line, or the END line, is kept back
   * unless the stream is `ending` (then it is dropped as one). Whether swallowing goes on.
   */
  private swallow(ending: boolean): boolean {
    const text = this.pending;
    if (this.swallowing === "run") {
      const space = text.search(/\s/);
      this.pending = space === -1 ? "" : text.slice(space);
      if (space !== -1) this.swallowing = undefined;
      return this.swallowing !== undefined;
    }
    const rest = text.slice(KEY_LINES.exec(text)?.[0].length ?? 0);
    const end = PEM_END.exec(rest);
    const arriving = isPemEndStart(rest) || KEY_LINE_START.test(rest);
    if (end) {
      this.pending = rest.slice(end[0].length);
      this.swallowing = undefined;
    } else if (arriving) {
      // A key line longer than any is key material all the same (and need not be read again).
      this.pending = ending || rest.length > LONG_RUN ? "" : rest;
      if (ending) this.swallowing = undefined;
    } else {
      // Its last line, cut short where something else begins, is the key's all the same.
      this.pending = rest.slice(KEY_LINE_RUN.exec(rest)?.[0].length ?? 0);
      this.swallowing = undefined;
    }
    return this.swallowing !== undefined;
  }

  /** Where a secret that may still be arriving starts, or `wordStart` when none reaches the tail. */
  private holdStart(text: string, wordStart: number): number {
    const begin = text.lastIndexOf("-----BEGIN ");
    const end = begin === -1 ? null : /-----END [A-Z ]+-----/.exec(text.slice(begin));
    // Hold from the BEGIN line until its whole END line has arrived.
    if (begin !== -1 && !end) return begin;
    let cut = wordStart;
    // A closed block whose END line reaches into the tail is held whole, to be redacted whole.
    if (end && begin + end.index + end[0].length >= cut) cut = Math.min(cut, begin);
    for (const pattern of MULTI_WORD) {
      for (const match of text.matchAll(pattern)) {
        if (match.index + match[0].length >= cut) cut = Math.min(cut, match.index);
      }
    }
    for (const secret of this.spacedSecrets) {
      // A whole one reaching into the tail is held with it; so is a tail that may begin one.
      const whole = text.lastIndexOf(secret);
      if (whole !== -1 && whole + secret.length >= cut) cut = Math.min(cut, whole);
      cut = Math.min(cut, text.length - sharedTail(text, secret));
    }
    return cut;
  }
}

/** Where the last whitespace-free run starts; in a very long run, a point well before its end. */
function lastWordStart(text: string): number {
  // Read back from the end: `/\S*$/` tries every start in a long run, once per piece streamed.
  let start = text.length;
  while (start > 0 && !isWhitespace(text.charCodeAt(start - 1))) start -= 1;
  if (text.length - start <= LONG_RUN) return start;
  if (text.startsWith("eyJ", start) && text.length - start <= TOKEN_RUN) return start;
  const limit = text.length - LONG_RUN_HOLD;
  // Prefer a break at punctuation, where a token pattern's word boundary would be anyway.
  const punctuation = text.slice(start, limit).search(/[^\w-][\w-]*$/);
  return punctuation === -1 ? limit : start + punctuation + 1;
}

/** Whether a character is one `\s` matches, the ASCII ones without a regular expression. */
function isWhitespace(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return /\s/.test(String.fromCharCode(code));
}

/** Whether `text` could be the start of a PEM block's END line, the rest still to come. */
function isPemEndStart(text: string): boolean {
  const line = "-----END ";
  return text.length < line.length ? line.startsWith(text) : /^-----END [A-Z ]*-{0,4}$/.test(text);
}

/** The length of the longest end of `text` that is a beginning of `secret` (shorter than it). */
function sharedTail(text: string, secret: string): number {
  for (let length = Math.min(secret.length - 1, text.length); length > 0; length -= 1) {
    if (text.endsWith(secret.slice(0, length))) return length;
  }
  return 0;
}
