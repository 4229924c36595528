import { decodeHiddenText, hasHiddenText } from "./hidden-text.js";
import type { SecretRedactor } from "./redact-secrets.js";
import {
  decodeEscapes,
  PART_SEARCH_MAX_CHARS,
  SecretHaystack,
  withDecodedBase64,
  withDecodedCharacters,
} from "./known-secret-search.js";
import { isSecretName } from "./secret-patterns.js";

/** A secret found in a call's arguments: where, and what kind (the rule that matched). */
export interface ArgumentSecret {
  /** A path into the arguments, e.g. `body` or `messages[2].text`; `(the arguments)` for all of them. */
  path: string;
  rule: string;
}

/** A string the call would send, and where it sits. */
interface ArgumentString {
  path: string;
  /** The name the string is the value of, if any. */
  key: string | undefined;
  text: string;
  isKey: boolean;
}

/** Shorter values under a secret-looking name are too short to be a credential worth asking about. */
const NAMED_SECRET_MIN_LENGTH = 8;

/**
 * Every secret a call would send out. Each string — values and keys — is checked with the rules
 * used on results (secretlint's preset, our patterns, the session's known secret values), also
 * as what its hidden characters spell; a string value under a name that says "secret"
 * (`password`, `api_key`, …) counts; text hidden in invisible characters counts by itself, since
 * it shows the person something other than what is sent; and the session's known secrets are
 * looked for across all the arguments at once, split between them or encoded (base64, hex, URL
 * encoding, reversed, case or spacing changed).
 */
export async function findArgumentSecrets(
  args: Record<string, unknown>,
  redactor: SecretRedactor,
  /**
   * Told each string (a value or a key) that holds a known secret by itself in a form no rule
   * finds (a part of a key, reversed, encoded): the session masks it from then on (see
   * SecretRedactor.withhold), since an allowed call sends it and its server may say it back.
   */
  onHolding?: (text: string) => void,
): Promise<ArgumentSecret[]> {
  const strings: ArgumentString[] = [];
  collectStrings(args, "", undefined, strings);
  const found: ArgumentSecret[] = [];
  const add = (path: string, rule: string): void => {
    if (!found.some((secret) => secret.path === path && secret.rule === rule)) found.push({ path, rule });
  };
  const secretKeys: string[] = [];
  const scanned = strings.map(({ text }) => (hasHiddenText(text) ? decodeHiddenText(text) : text));
  const matched = await redactor.rulesIn(scanned);
  for (const [index, { path, key, text }] of strings.entries()) {
    if (scanned[index] !== text) add(path, "hidden-text");
    const rules = new Set(matched[index]?.rules);
    if (
      rules.size === 0 &&
      key !== undefined &&
      // The length first: most values are short, and splitting the name into words is not free.
      text.length >= NAMED_SECRET_MIN_LENGTH &&
      isSecretName(key, "argument")
    )
      rules.add("secret-named-argument");
    for (const rule of rules) add(path, rule);
    if (rules.size > 0 && strings[index]?.isKey) secretKeys.push(text);
  }
  const needles = redactor.knownNeedles;
  // The joined forms are worth making only when there is a known secret to look for in them.
  if (needles.length > 0) {
    // What the rules mask already (a whole key, a text withheld before) is read masked, so a part
    // of the key beside it is still found, and not the same key twice.
    const asMasked = matched.map((redaction) => redaction.text);
    // Parts are looked for by the size of what the call sends, not of a form decoding lengthened.
    const searchParts = strings.reduce((sum, { text }) => sum + text.length, 0) <= PART_SEARCH_MAX_CHARS;
    const haystacks = joinedForms(args, strings, asMasked).map(
      (form) => new SecretHaystack(form, searchParts),
    );
    if (needles.some((needle) => haystacks.some((haystack) => haystack.contains(needle)))) {
      add("(the arguments)", "known-secret");
      // Found in the whole, it may be in one string: a key holding any of it is not shown in a
      // path, and any string holding it is masked from now on.
      for (const [index, { isKey, text }] of strings.entries()) {
        const forms = ownForms(asMasked[index] ?? text).map((form) => new SecretHaystack(form, searchParts));
        if (!needles.some((needle) => forms.some((form) => form.contains(needle)))) continue;
        if (isKey) secretKeys.push(text);
        onHolding?.(text);
      }
    }
  }
  // A path is made of key names, and a key may be the secret: it is never shown in one.
  const masked = (path: string): string =>
    redactor.redactSync(secretKeys.reduce((shown, key) => shown.split(key).join("[REDACTED]"), path)).text;
  return found.map((secret) => ({ ...secret, path: masked(secret.path) }));
}

/**
 * The arguments' text as one string, in the orders a secret split across them could be put back
 * together: the values in order and reversed, keys and values as they stand, arrays of
 * character codes as the text they spell; each also with escapes decoded (`\u0041`, `\x41`,
 * `&#65;`), then what it spells in percent-encoding, hex and lists of character codes
 * (withDecodedCharacters), and base64 runs inside that decoded, twice over.
 */
function joinedForms(
  args: Record<string, unknown>,
  strings: readonly ArgumentString[],
  /** Each string as its hidden characters spell it, in the same order as `strings`. */
  decoded: readonly string[],
): string[] {
  const values = decoded.filter((_, index) => strings[index]?.isKey === false);
  const spelled = characterCodeTexts(args);
  const forms = [[...values, ...spelled].join(""), [...values].reverse().join(""), decoded.join("")];
  const all = forms.flatMap(decodedForms);
  // One argument gives the same text in most orders: each distinct text is searched once.
  return [...new Set(all)];
}

/** One string as joinedForms reads the whole (see decodedForms). */
function ownForms(text: string): string[] {
  return [...new Set(decodedForms(text))];
}

/** A text as it is, its escapes decoded, what it spells in characters' encodings, base64 inside that decoded twice. */
function decodedForms(text: string): string[] {
  const unescaped = decodeEscapes(text);
  const spelled = withDecodedCharacters(unescaped);
  const once = withDecodedBase64(spelled);
  return [text, unescaped, spelled, once, withDecodedBase64(once)];
}

/** The longest array read as character codes: no secret is longer, and spreading more overflows the stack. */
const MAX_CODE_ARRAY = 4096;

/** Arrays of numbers that are printable character codes, as the text they spell. */
function characterCodeTexts(value: unknown): string[] {
  if (Array.isArray(value)) {
    const codes = value as unknown[];
    if (
      codes.length >= NAMED_SECRET_MIN_LENGTH &&
      codes.length <= MAX_CODE_ARRAY &&
      codes.every(
        (item) => typeof item === "number" && Number.isInteger(item) && item >= 32 && item < 0x10000,
      )
    )
      return [String.fromCharCode(...(codes as number[]))];
    return codes.flatMap(characterCodeTexts);
  }
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(characterCodeTexts);
  return [];
}

/** How a finding reads to a person: `body (openai-api-key)`. */
export function describeArgumentSecrets(secrets: readonly ArgumentSecret[]): string {
  return secrets.map((secret) => `${secret.path || "(the arguments)"} (${secret.rule})`).join(", ");
}

function collectStrings(value: unknown, path: string, key: string | undefined, into: ArgumentString[]): void {
  if (typeof value === "string") {
    into.push({ path, key, text: value, isKey: false });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      collectStrings(item, `${path}[${index}]`, key, into);
    });
  } else if (typeof value === "object" && value !== null) {
    for (const [name, item] of Object.entries(value)) {
      const at = path ? `${path}.${name}` : name;
      // A key is sent as much as a value is.
      into.push({ path: `${at} (key)`, key: undefined, text: name, isKey: true });
      collectStrings(item, at, name, into);
    }
  }
}
