import { decodeHiddenText, hasHiddenText } from "./hidden-text.js";
import type { SecretRedactor } from "./redact-secrets.js";
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
/** Encoded forms shorter than this match too much by chance to say anything. */
const ENCODED_MIN_LENGTH = 12;

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
): Promise<ArgumentSecret[]> {
  const strings: ArgumentString[] = [];
  collectStrings(args, "", undefined, strings);
  const found: ArgumentSecret[] = [];
  const add = (path: string, rule: string): void => {
    if (!found.some((secret) => secret.path === path && secret.rule === rule)) found.push({ path, rule });
  };
  const scanned = strings.map(({ text }) => (hasHiddenText(text) ? decodeHiddenText(text) : text));
  const matched = await redactor.rulesIn(scanned);
  for (const [index, { path, key, text }] of strings.entries()) {
    if (scanned[index] !== text) add(path, "hidden-text");
    const rules = new Set(matched[index]);
    if (rules.size === 0 && key !== undefined && isSecretName(key, "argument") && text.length >= NAMED_SECRET_MIN_LENGTH)
      rules.add("secret-named-argument");
    for (const rule of rules) add(path, rule);
  }
  if (!found.some((secret) => secret.rule === "known-secret")) {
    const values = strings.filter((item) => !item.isKey);
    const all = values.map(({ text }) => decodeHiddenText(text)).join("");
    if (redactor.knownValues.some((secret) => containsEncoded(all, secret)))
      add("(the arguments)", "known-secret");
  }
  return found;
}

/** How a finding reads to a person: `body (openai-api-key)`. */
export function describeArgumentSecrets(secrets: readonly ArgumentSecret[]): string {
  return secrets.map((secret) => `${secret.path || "(the arguments)"} (${secret.rule})`).join(", ");
}

/** Whether `haystack` holds `secret` plainly, split, spaced, in another case, reversed or encoded. */
function containsEncoded(haystack: string, secret: string): boolean {
  if (secret.length < NAMED_SECRET_MIN_LENGTH) return false;
  const compact = haystack.replace(/\s+/g, "");
  const folded = compact.toLowerCase();
  const plain = secret.replace(/\s+/g, "").toLowerCase();
  if (folded.includes(plain) || folded.includes(Array.from(plain).reverse().join(""))) return true;
  const decodedUrl = safeDecodeUri(compact).toLowerCase();
  if (decodedUrl.includes(plain)) return true;
  const bytes = Buffer.from(secret, "utf8");
  if (folded.includes(bytes.toString("hex"))) return true;
  return base64Cores(bytes).some((core) => compact.includes(core) || compact.includes(toBase64Url(core)));
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

function safeDecodeUri(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
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
