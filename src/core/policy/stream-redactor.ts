import { REDACTED, SECRET_FLAG_NAME, SECRET_NAME } from "./secret-patterns.js";

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
 * `password =` still running): a hold without end (a model writing megabytes after `Bearer `)
 * would grow without end, and every read of it with it. Past it, the hold is shown as one [REDACTED] and what continues it is dropped
 * (Swallowing), so a secret longer than this shows no part of itself either.
 */
const LONGEST_HOLD = TOKEN_RUN;
/**
 * A hold up to this long is read again on every piece; a longer one once it has grown by a
 * READ_AGAIN_AFTER-th of itself. Reading on each piece made a hold cost its length per piece, so
 * a model streaming 16 KB tokens one character at a time took 34 s a megabyte. Waiting is safe:
 * pieces read together are read as if they had arrived as one, which any split must allow.
 */
const HOLD_READ_EACH_PIECE = 256;
const READ_AGAIN_AFTER = 32;

/**
 * What continues a secret too long to hold: a PEM block's key material up to its END line, or a
 * value up to what ends it (a space, or the quote it opened with).
 */
type Swallowing = { kind: "pem" } | { kind: "run"; end: RegExp };
/**
 * A PEM block's key material as the cut-short key pattern reads it: base64 runs with spaces,
 * line breaks, `\n` escapes, `\/` and `> ` quoting between them, and an encrypted key's header
 * lines. (Words after a key are taken with it, as that pattern takes them.)
 */
const KEY_MATERIAL = /^(?:(?:Proc-Type|DEK-Info|Comment):[^\r\n\\]*|[A-Za-z0-9+/=\s>]|\\[nr/])*/;
const PEM_END = /^-----END [A-Z ]*PRIVATE KEY-----/;
/** A PEM private key's first line, the one hold whose continuation is key material. */
const PRIVATE_KEY_FIRST_LINE = /^-----BEGIN [A-Z ]*PRIVATE KEY-----/;
/** An assignment whose quoted value is still open at the end: it ends at its quote. */
const OPEN_QUOTED_VALUE = /[:=]\s*(["'])[^\n]*$/;

/**
 * Secrets that span more than one word: an assignment such as `password = "two words"` (its
 * value finished or not), a `Bearer` with its token, an option named as a secret with its value.
 * One that reaches into the held-back tail is held whole, so the redactor later sees the key and
 * its value together.
 */
const MULTI_WORD = [
  new RegExp(String.raw`${SECRET_NAME}["']?\s*(?:[:=]\s*(?:"[^"\n]*"?|'[^'\n]*'?|[^\s"',;]*))?`, "gi"),
  /\b[Bb]earer\s*[A-Za-z0-9._~+/=-]*/g,
  // An option named as a secret with its value, finished or not (`--db-password Tr0ub…`, a
  // quoted one still open): its name whole, as the secret-flag rule reads it.
  new RegExp(String.raw`${SECRET_FLAG_NAME}(?:[ \t]+(?:"[^"\n]*"?|'[^'\n]*'?|[^\s"'\\]*))?`, "gi"),
  // A Docker config's `"auth": "…"` (the docker-auth rule), its value finished or not.
  /"(?:auth|identitytoken|registrytoken)"\s*(?::\s*(?:"[^"\n]*"?)?)?/gi,
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
  /** How long `pending` may grow before it is read again (see HOLD_READ_EACH_PIECE). */
  private readAgainAt = 0;

  constructor(
    private readonly redact: (text: string) => string,
    /** Known secret values with whitespace in them: a tail that starts one is held too. */
    private readonly spacedSecrets: readonly string[] = [],
  ) {}

  /** Adds streamed text; returns what is now safe to show (often ""). */
  push(delta: string): string {
    this.pending += delta;
    if (this.swallowing) {
      if (this.swallow(false)) return "";
      this.readAgainAt = 0;
    }
    if (this.pending.length < this.readAgainAt) return "";
    const shown = this.release();
    const held = this.pending.length;
    this.readAgainAt = held > HOLD_READ_EACH_PIECE ? held + Math.ceil(held / READ_AGAIN_AFTER) : 0;
    return shown;
  }

  /** Releases what is safe to show of `pending`, keeping back the tail a secret may straddle. */
  private release(): string {
    const text = this.pending;
    const held = this.holdStart(text, lastWordStart(text));
    if (text.length - held > LONGEST_HOLD) return this.letGo(text, held);
    if (held <= 0) return "";
    this.pending = text.slice(held);
    return this.redact(text.slice(0, held));
  }

  /** The rest, at the end of the stream (or before anything else is reported). */
  flush(): string {
    if (this.swallowing) this.swallow(true);
    this.swallowing = undefined;
    this.readAgainAt = 0;
    const rest = this.pending;
    this.pending = "";
    return rest ? this.redact(rest) : "";
  }

  /**
   * A hold past LONGEST_HOLD, let go: where the secret rules find a secret running to its end (or
   * a quoted value is still open), it is shown redacted and what continues it is dropped
   * (swallow); otherwise it was no secret, or one that ended, and is released as words are.
   */
  private letGo(text: string, held: number): string {
    const hold = text.slice(held);
    const key = PRIVATE_KEY_FIRST_LINE.test(hold);
    const open = key ? null : OPEN_QUOTED_VALUE.exec(hold);
    const quote = open?.[1];
    this.pending = "";
    if (open && quote !== undefined) {
      this.swallowing = { kind: "run", end: new RegExp(`[${quote}\n]`) };
      const valueStart = held + open.index + open[0].indexOf(quote) + 1;
      return `${this.redact(text.slice(0, valueStart))}${REDACTED}`;
    }
    const redacted = this.redact(text);
    if (endsInSecret(redacted)) {
      this.swallowing = key ? { kind: "pem" } : { kind: "run", end: /\s/ };
      return redacted;
    }
    const wordStart = lastWordStart(text);
    this.pending = text.slice(wordStart);
    return this.redact(text.slice(0, wordStart));
  }

  /**
   * Drops what continues a secret too long to hold from the start of `pending`: a PEM key's
   * material and its END line, or a value up to what ends it. Swallowing ends where something
   * else begins; an END line still arriving (or a `\n` escape cut in two) is kept back unless the
   * stream is `ending`. Whether swallowing goes on.
   */
  private swallow(ending: boolean): boolean {
    const text = this.pending;
    const swallowing = this.swallowing;
    if (swallowing?.kind === "run") {
      const end = text.search(swallowing.end);
      this.pending = end === -1 ? "" : text.slice(end);
      if (end !== -1) this.swallowing = undefined;
      return end === -1;
    }
    const rest = text.slice(KEY_MATERIAL.exec(text)?.[0].length ?? 0);
    const end = PEM_END.exec(rest);
    if (end) {
      this.pending = rest.slice(end[0].length);
      this.swallowing = undefined;
    } else if (rest === "" || (!ending && (isPemEndStart(rest) || rest === "\\"))) {
      this.pending = ending ? "" : rest;
      if (ending) this.swallowing = undefined;
    } else {
      this.pending = rest;
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
  // A JWT inside the run (`{"id_token":"eyJ…`) is held from where it starts, as one alone is.
  const jwt = jwtStart(text, Math.max(start, text.length - TOKEN_RUN));
  if (jwt !== undefined) return jwt;
  const limit = text.length - LONG_RUN_HOLD;
  // Prefer a break at punctuation, where a token pattern's word boundary would be anyway.
  const punctuation = text.slice(start, limit).search(/[^\w-][\w-]*$/);
  return wholeJwt(text, start, punctuation === -1 ? limit : start + punctuation + 1);
}

/**
 * `cut`, or, where a JWT (up to TOKEN_RUN long) runs across it, where that JWT starts: a JWT
 * released in two parts matches no rule (its dots are punctuation a cut prefers). Its start is
 * an `eyJ` after no JWT character (the payload's `eyJ` follows a dot, and is not a start).
 */
function wholeJwt(text: string, start: number, cut: number): number {
  for (let at = text.lastIndexOf("eyJ", cut - 1); at >= start; at = text.lastIndexOf("eyJ", at - 1)) {
    if (at > start && isJwtCharacter(text.charCodeAt(at - 1))) continue;
    let end = at;
    while (end < text.length && isJwtCharacter(text.charCodeAt(end))) end += 1;
    return end > cut && text.length - at <= TOKEN_RUN ? at : cut;
  }
  return cut;
}

/**
 * Where a JWT that runs to the end of `text` starts, looking no further back than `from`: the
 * first `eyJ` not inside another token within the tail of a JWT's characters. Linear: a run of
 * `.eyJ` pieces broken by a comma must not cost its length for each of them.
 */
function jwtStart(text: string, from: number): number | undefined {
  let tail = text.length;
  while (tail > from && isJwtCharacter(text.charCodeAt(tail - 1))) tail -= 1;
  for (let at = text.indexOf("eyJ", tail); at !== -1; at = text.indexOf("eyJ", at + 3)) {
    if (at === tail || !isTokenCharacter(text.charCodeAt(at - 1))) return at;
  }
  return undefined;
}

/** A base64url token's characters: letters, digits, `-` and `_`. */
function isTokenCharacter(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x2d ||
    code === 0x5f
  );
}

/** A JWT's characters: its parts' and the dots between them. */
function isJwtCharacter(code: number): boolean {
  return isTokenCharacter(code) || code === 0x2e;
}

/** Whether a character is one `\s` matches, the ASCII ones without a regular expression. */
function isWhitespace(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return /\s/.test(String.fromCharCode(code));
}

/** Whether a redacted text's last secret runs to its end (line breaks after it aside). */
function endsInSecret(redacted: string): boolean {
  const last = redacted.lastIndexOf(REDACTED);
  return last !== -1 && /^(?:\s|\\[nr]?)*$/.test(redacted.slice(last + REDACTED.length));
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
