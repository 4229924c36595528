/**
 * Looking for a known secret value inside text that may hide it: split, spaced, reversed, in
 * another case or width, escaped, URL-encoded, hex, character codes or base64 (at any byte
 * offset, nested), or a long enough part of it on its own, in any of those forms.
 */

/** Secrets shorter than this match too much by chance to look for in disguise. */
const MIN_SECRET_LENGTH = 8;
/** Encoded forms shorter than this match too much by chance to say anything. */
const ENCODED_MIN_LENGTH = 12;
/**
 * A run of a known secret this long gives most of it away, wherever the rest went: its random
 * part without the public prefix (`sk-proj-` dropped), or pieces of it put in another order.
 * Sixteen characters of a key's random part leave too little to guess to call it safe.
 */
const PART_MIN_LENGTH = 16;
/**
 * Every run of PART_MIN_LENGTH characters of a secret holds one of its pieces of this length
 * that start at a multiple of it: those are searched for, and each place one is found is
 * widened to the run around it.
 */
const PART_ANCHOR_LENGTH = PART_MIN_LENGTH / 2;
/**
 * Arguments longer than this are searched for known secrets whole and in disguise, not for parts:
 * each part costs a search of the whole text, and a megabyte of arguments times every known key
 * would hold the call (and the screen) for seconds.
 */
export const PART_SEARCH_MAX_CHARS = 256 * 1024;
/** A secret whose parts are looked for: one word of key characters, no dots, colons or spaces. */
const TOKEN_LIKE = /^[A-Za-z0-9_+/=-]{20,256}$/;

export function decodeEscapes(text: string): string {
  return text
    .replace(
      /\\u\{?([0-9a-fA-F]{2,6})\}?|\\x([0-9a-fA-F]{2})|&#x([0-9a-fA-F]+);|&#(\d+);/g,
      (whole: string, u?: string, x?: string, hex?: string, dec?: string) => {
        const code = dec === undefined ? Number.parseInt(u ?? x ?? hex ?? "", 16) : Number.parseInt(dec, 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      },
    )
    .normalize("NFKC");
}

/** `text` followed by what each base64 run of 16 or more characters in it decodes to, where that is text. */
export function withDecodedBase64(text: string): string {
  const decoded = Array.from(text.matchAll(/[A-Za-z0-9+/_-]{16,}={0,2}/g), ([run]) => {
    const plain = Buffer.from(run.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8");
    return /^[\x20-\x7e\s]+$/.test(plain) ? plain : "";
  }).filter((plain) => plain !== "");
  // Unchanged when nothing decoded: the same text is then not searched again as another form.
  return decoded.length === 0 ? text : [text, ...decoded].join("\n");
}

/**
 * `text` followed by what it says once each encoding that spells characters one by one is read:
 * percent-encoding anywhere in it (`%41%62`, either case, amid plain characters), runs of hex
 * bytes (`41624364…`, at either alignment), and lists of character codes (`115,107,45`, `0x73
 * 0x6b`, `0o163`, `0b1110011`, in any base their digits allow). So a part of a key is found
 * encoded as much as whole: SecretHaystack reads the text the encoding spells. Only readings of
 * printable ASCII are kept (a key's characters); a text longer than PART_SEARCH_MAX_CHARS is
 * left as it is.
 */
export function withDecodedCharacters(text: string): string {
  if (text.length > PART_SEARCH_MAX_CHARS) return text;
  const readings: string[] = [];
  readings.push(...percentDecodedStretches(text));
  for (const [run] of text.matchAll(HEX_RUN))
    for (const aligned of [run, run.slice(1)]) {
      const even = aligned.slice(0, aligned.length - (aligned.length % 2));
      readings.push(printableStretches(Buffer.from(even, "hex").toString("latin1")));
    }
  for (const [list] of text.matchAll(CODE_LIST)) readings.push(...codeListReadings(list));
  const kept = readings.filter((reading) => reading !== "");
  return kept.length === 0 ? text : [text, ...kept].join("\n");
}

/**
 * Each stretch of `text` that holds percent-encoding, decoded, with the PERCENT_CONTEXT
 * characters around it (a part of a key may be partly encoded): not the whole text again, which
 * would double what the part search reads and could take a text past PART_SEARCH_MAX_CHARS.
 * Stretches that meet are read as one.
 */
function percentDecodedStretches(text: string): string[] {
  const stretches: Array<[number, number]> = [];
  for (const run of text.matchAll(/(?:%[0-9a-fA-F]{2})+/g)) {
    const start = Math.max(0, run.index - PERCENT_CONTEXT);
    const end = Math.min(text.length, run.index + run[0].length + PERCENT_CONTEXT);
    const last = stretches.at(-1);
    if (last && start <= last[1]) last[1] = end;
    else stretches.push([start, end]);
  }
  return stretches.map(([start, end]) =>
    text
      .slice(start, end)
      .replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
  );
}

/** Plain characters kept on each side of percent-encoding: more than a part of a key (PART_MIN_LENGTH). */
const PERCENT_CONTEXT = 2 * PART_MIN_LENGTH;

/** A run of 16 or more hex digits: eight bytes or more. */
const HEX_RUN = /[0-9a-fA-F]{16,}/g;
/** One character code: prefixed (hex, octal, binary), or bare digits read in each base they allow. */
const CODE = "(?:0[xX][0-9a-fA-F]{1,4}|0[oO][0-7]{1,6}|0[bB][01]{1,16}|[0-9a-fA-F]{1,8})";
/**
 * Eight codes or more, each after the last by one to three separators, starting where a word
 * starts (a long run of digits is not tried at each of its digits).
 */
const CODE_LIST = new RegExp(`(?<![0-9A-Za-z])${CODE}(?:[\\s,;:|/_.-]{1,3}${CODE}){7,}`, "g");

/** Each text a list of character codes spells, read in every base its bare codes allow. */
function codeListReadings(list: string): string[] {
  const codes = list.split(/[\s,;:|/_.-]+/).filter((code) => code !== "");
  const prefixed = codes.map(prefixedValue);
  return BARE_BASES.map(([base, digits]) => {
    // Printable ASCII is all a stretch keeps: any other value (or no value) breaks it, as a 0.
    const spelled = new Uint8Array(codes.length);
    for (const [index, code] of codes.entries()) {
      const value = prefixed[index] ?? (digits.test(code) ? Number.parseInt(code, base) : 0);
      spelled[index] = value >= 0x20 && value <= 0x7e ? value : 0;
    }
    return printableStretches(Buffer.from(spelled.buffer).toString("latin1"));
  });
}

/** The value of a code written with its base (`0x73`, `0o163`, `0b1110011`); undefined for bare digits. */
function prefixedValue(code: string): number | undefined {
  const base = PREFIXED_BASES.get(code.slice(0, 2).toLowerCase());
  return base === undefined ? undefined : Number.parseInt(code.slice(2), base);
}

const PREFIXED_BASES = new Map([
  ["0x", 16],
  ["0o", 8],
  ["0b", 2],
]);
/**
 * The stretches of printable ASCII (what keys are made of) in a decoded text that are long
 * enough to hold the shortest secret looked for, one per line; empty when there are none.
 */
function printableStretches(text: string): string {
  return (text.match(PRINTABLE_STRETCH) ?? []).join("\n");
}

const PRINTABLE_STRETCH = new RegExp(`[\\x20-\\x7e]{${MIN_SECRET_LENGTH},}`, "g");

const BARE_BASES: ReadonlyArray<readonly [number, RegExp]> = [
  [10, /^\d+$/],
  [16, /^[0-9a-fA-F]+$/],
  [8, /^[0-7]+$/],
  [2, /^[01]+$/],
];

/**
 * A known secret in every form SecretHaystack looks for it, made once per secret rather than
 * once for each text it is looked for in. Undefined forms are too short to say anything.
 */
export class SecretNeedle {
  /** Without whitespace, case-folded. */
  readonly plain: string;
  readonly reversed: string;
  readonly letters: string | undefined;
  readonly hex: string;
  /** The base64 cores (see base64Cores), each also in its URL-safe alphabet. */
  readonly base64: readonly string[];

  constructor(readonly secret: string) {
    this.plain = secret.replace(/\s+/g, "").toLowerCase();
    this.reversed = Array.from(this.plain).reverse().join("");
    const secretLetters = letters(secret);
    this.letters = secretLetters.length >= MIN_SECRET_LENGTH ? secretLetters : undefined;
    const bytes = Buffer.from(secret, "utf8");
    this.hex = bytes.toString("hex");
    this.base64 = base64Cores(bytes).flatMap((core) => [core, toBase64Url(core)]);
  }

  /**
   * Whether a part of it on its own gives it away: a key of one word of random characters
   * (`sk-proj-…`, `ghp_…`, a hex or base64 token). A JWT, a URL, a PEM key or a JSON document
   * shares long runs with others of its kind (a JWT's header, a webhook's address, a key's
   * algorithm), so for those only the whole value and its disguises count.
   */
  get tokenLike(): boolean {
    return TOKEN_LIKE.test(this.secret);
  }

  /** Whether it is long enough to look for in disguise at all. */
  get searchable(): boolean {
    return this.secret.length >= MIN_SECRET_LENGTH;
  }
}

/**
 * A text prepared once for looking up many secrets in it: without whitespace, case-folded,
 * URL-decoded, and as letters and digits alone. Each form is made on first use.
 */
export class SecretHaystack {
  private compactText: string | undefined;
  private foldedText: string | undefined;
  private urlDecoded: string | undefined;
  private lettersOnly: string | undefined;

  constructor(
    private readonly text: string,
    /**
     * Whether parts of a secret are looked for: by default when the text is no longer than
     * PART_SEARCH_MAX_CHARS; a form decoded from arguments within it says so for itself, since
     * decoding may lengthen it.
     */
    private readonly searchParts = text.length <= PART_SEARCH_MAX_CHARS,
  ) {}

  /** Whether it holds the secret plainly, split, spaced, in another case, reversed or encoded. */
  contains(needle: SecretNeedle): boolean {
    if (!needle.searchable) return false;
    const folded = this.folded();
    if (folded.includes(needle.plain) || folded.includes(needle.reversed)) return true;
    // Joined by dashes, dots, colons or anything else: letters and digits alone still spell it.
    if (needle.letters !== undefined && this.letters().includes(needle.letters)) return true;
    if (this.decodedUrl().includes(needle.plain)) return true;
    // Hex survives with any separator between its bytes (`74:68:65`).
    if (this.letters().includes(needle.hex)) return true;
    const compact = this.compact();
    if (needle.base64.some((core) => compact.includes(core))) return true;
    if (!needle.tokenLike || !this.searchParts) return false;
    return (
      holdsPartOf(folded, needle.plain) ||
      holdsPartOf(folded, needle.reversed) ||
      (needle.letters !== undefined && holdsPartOf(this.letters(), needle.letters))
    );
  }

  private compact(): string {
    this.compactText ??= this.text.replace(/\s+/g, "");
    return this.compactText;
  }

  private folded(): string {
    this.foldedText ??= this.compact().toLowerCase();
    return this.foldedText;
  }

  private decodedUrl(): string {
    this.urlDecoded ??= safeDecodeUri(this.compact()).toLowerCase();
    return this.urlDecoded;
  }

  private letters(): string {
    this.lettersOnly ??= letters(this.text);
    return this.lettersOnly;
  }
}

/**
 * Whether `text` holds a run of at least PART_MIN_LENGTH characters of `secret` with a letter and
 * a digit in it: a key's random part has both, and a run of words or of a URL's fixed start (a
 * webhook's `https://hooks.example.com/services/`) is what ordinary text shares with secrets.
 */
function holdsPartOf(text: string, secret: string): boolean {
  if (secret.length < PART_MIN_LENGTH || text.length < PART_MIN_LENGTH) return false;
  for (let anchor = 0; anchor + PART_ANCHOR_LENGTH <= secret.length; anchor += PART_ANCHOR_LENGTH) {
    const piece = secret.slice(anchor, anchor + PART_ANCHOR_LENGTH);
    for (let at = text.indexOf(piece); at !== -1; at = text.indexOf(piece, at + 1)) {
      let before = 0;
      while (before < anchor && before < at && text[at - before - 1] === secret[anchor - before - 1])
        before += 1;
      let after = PART_ANCHOR_LENGTH;
      while (
        anchor + after < secret.length &&
        at + after < text.length &&
        text[at + after] === secret[anchor + after]
      )
        after += 1;
      const run = secret.slice(anchor - before, anchor + after);
      if (run.length >= PART_MIN_LENGTH && /\d/.test(run) && /\p{L}/u.test(run)) return true;
    }
  }
  return false;
}

function letters(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "");
}

/**
 * The part of the secret's base64 that is the same wherever it sits in a longer encoded text:
 * one form per byte offset modulo 3, without the first and last groups, which mix in neighbours.
 */
function base64Cores(bytes: Buffer): string[] {
  return [0, 1, 2].flatMap((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const whole = Math.floor((offset + bytes.length) / 3) * 4;
    const core = encoded.slice(offset === 0 ? 0 : 4, whole);
    return core.length >= ENCODED_MIN_LENGTH ? [core] : [];
  });
}

function toBase64Url(text: string): string {
  return text.replace(/\+/g, "-").replace(/\//g, "_");
}

/** `decodeURIComponent`, or the text as it is where it is not valid URI encoding. */
export function safeDecodeUri(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
