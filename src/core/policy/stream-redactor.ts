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
 * `password =` still running): no key or token is this long, and each piece that arrives reads
 * the whole hold again, so a hold without end (a model writing megabytes after `Bearer `) made
 * the screen wait seconds per 100 KB. Past it, the hold is released redacted, word by word.
 */
const LONGEST_HOLD = TOKEN_RUN;

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

  constructor(
    private readonly redact: (text: string) => string,
    /** Known secret values with whitespace in them: a tail that starts one is held too. */
    private readonly spacedSecrets: readonly string[] = [],
  ) {}

  /** Adds streamed text; returns what is now safe to show (often ""). */
  push(delta: string): string {
    this.pending += delta;
    const cut = this.cutPoint();
    if (cut <= 0) return "";
    const ready = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return this.redact(ready);
  }

  /** The rest, at the end of the stream (or before anything else is reported). */
  flush(): string {
    const rest = this.pending;
    this.pending = "";
    return rest ? this.redact(rest) : "";
  }

  /** Where what is safe to show ends: before the last word, or before a secret still arriving. */
  private cutPoint(): number {
    const text = this.pending;
    const wordStart = lastWordStart(text);
    const held = this.holdStart(text, wordStart);
    return text.length - held > LONGEST_HOLD ? wordStart : held;
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
  const match = /\S*$/.exec(text);
  const start = match ? match.index : text.length;
  if (text.length - start <= LONG_RUN) return start;
  if (text.startsWith("eyJ", start) && text.length - start <= TOKEN_RUN) return start;
  const limit = text.length - LONG_RUN_HOLD;
  // Prefer a break at punctuation, where a token pattern's word boundary would be anyway.
  const punctuation = text.slice(start, limit).search(/[^\w-][\w-]*$/);
  return punctuation === -1 ? limit : start + punctuation + 1;
}

/** The length of the longest end of `text` that is a beginning of `secret` (shorter than it). */
function sharedTail(text: string, secret: string): number {
  for (let length = Math.min(secret.length - 1, text.length); length > 0; length -= 1) {
    if (text.endsWith(secret.slice(0, length))) return length;
  }
  return 0;
}
