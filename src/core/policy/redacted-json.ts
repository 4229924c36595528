import { revealHiddenText } from "./hidden-text.js";
import { defineEntry, redactShared, renameKeys, type WalkOptions } from "./redact-deep.js";
import { rememberShortAnswer } from "./remembered-texts.js";
import { sanitizeForTerminal } from "./sanitize-terminal.js";
import { isSecretName, REDACTED } from "./secret-patterns.js";

/**
 * Serializes a record with every secret removed. Each string is redacted before serializing
 * (so a secret that JSON would escape is still found), then the whole line (so `"password":
 * "…"` pairs split across a key and its value are caught too). If redacting the line would
 * break its JSON, the per-string result is kept.
 */
export function redactedLine(record: unknown, redact: (text: string) => string): string {
  return secondPass(eachStringRedacted(record, redact), redact);
}

/**
 * redactedLine for many records at once, with the same result line for line. The lines' second
 * pass runs over all of them joined, and line by line only when that finds something: a pattern
 * cannot match inside one line for having other lines around it (none is anchored to the start
 * or end of a text, and a line break stands where a line's start or end stood), so when the
 * joined text holds no secret, no line does. Most batches hold none, and one pass costs less
 * than one per line.
 */
export function redactedLines(
  records: readonly object[],
  redact: (text: string) => string,
  /** What each string is redacted with first, when not `redact` (see checkedLines). */
  eachString: (text: string) => string = redact,
  /** Handed every key of every record, in the same walk as the strings (see checkedLines). */
  eachKey?: (key: string) => void,
  /** `redact` one rule at a time, for a line it breaks (see RecordRedaction.lineSteps). */
  steps?: ReadonlyArray<(text: string) => string>,
): string[] {
  const lines = records.map((record) => eachStringRedacted(record, eachString, eachKey));
  if (lines.length < 2) return lines.map((line) => secondPass(line, redact, steps));
  const joined = lines.join("\n");
  return redact(joined) === joined ? lines : lines.map((line) => secondPass(line, redact, steps));
}

/**
 * How the records of a file mcpterm keeps (the trace, a saved session) lose their secrets: the
 * synchronous rules (patterns and known values), a cheap test of whether the full rule set
 * (secretlint's preset) might find more in a text, and the full rule set, which is asynchronous.
 */
export interface RecordRedaction {
  sync: (text: string) => string;
  /**
   * A serialized line read again once each of its strings and keys went through `sync`, for what
   * only the whole line shows (a key and its value): `sync`'s rules in effect, with the rules
   * that cannot span strings skipped where they cannot find anything new (see LINE_PATTERNS).
   */
  line: (text: string) => string;
  /**
   * `line` one rule (or the known values) at a time, in its order. Where reading a line whole
   * breaks its JSON (a match that ran past a string's end), each is kept where the line stays
   * JSON, so that match does not take the others with it (a private key spread over items).
   */
  lineSteps?: ReadonlyArray<(text: string) => string>;
  mayFindMore: (text: string) => boolean;
  full: (text: string) => Promise<string>;
}

/** Said in place of a string a file had to be written with before the full rule set read it. */
export const UNCHECKED = "[REDACTED: not yet checked for secrets]";

/**
 * redactedLines for a writer that cannot always wait: `now` may be written at once, and is exact
 * when no string needs the full rule set (then there is no `checked`). Otherwise each string it
 * might find something in is replaced whole in `now`, and `checked` brings the exact lines, those
 * strings redacted by the full rule set. The test runs on every key and every string, the strings
 * as they are redacted; a flagged key is renamed as a string would be replaced. Keys are
 * redacted by the synchronous rules as strings are, before serializing: in JSON, a key's escapes
 * hide it from the line's second pass as a string's would (`"\nsk-…"`, a known value with a quote).
 */
export function checkedLines(
  records: readonly object[],
  redaction: RecordRedaction,
): { now: string[]; checked?: Promise<string[]> } {
  const unsure = new Set<string>();
  const note = (text: string): void => {
    if (redaction.mayFindMore(text)) unsure.add(text);
  };
  const secretKeys = new Set<string>();
  let lines = redactedLines(
    records,
    redaction.line,
    (text) => {
      note(text);
      return redaction.sync(text);
    },
    // Keys too: a server may send a token as the name of an entry (`{"lin_api_…": true}`).
    (key) => {
      note(key);
      if (redaction.sync(key) !== key) secretKeys.add(key);
    },
    redaction.lineSteps,
  );
  const keyed = (record: object): object =>
    secretKeys.size === 0
      ? record
      : renameKeys(record, (key) => (secretKeys.has(key) ? redaction.sync(key) : key));
  if (secretKeys.size > 0)
    lines = redactedLines(records.map(keyed), redaction.line, redaction.sync, undefined, redaction.lineSteps);
  if (unsure.size === 0) return { now: lines };
  const linesWith = (source: readonly object[], replace: (text: string) => string | undefined): string[] =>
    redactedLines(
      source.map((record) => keyed(renameKeys(record, (key) => replace(key) ?? key))),
      redaction.line,
      (text) => replace(text) ?? redaction.sync(text),
      undefined,
      redaction.lineSteps,
    );
  // A flagged key goes with what it names: renamed, the key no longer tells the line's second
  // pass that its value is a secret (`"AWS_SECRET_ACCESS_KEY": "…"`). A record holding anything
  // flagged has every string withheld: the rules may need a withheld string to see the secret
  // around it (a private key split over items, its first line withheld).
  const now = linesWith(
    records.map((record) =>
      withheldUnder(holdsAny(record, unsure) ? everyStringWithheld(record) : record, (key) =>
        unsure.has(key),
      ),
    ),
    (text) => (unsure.has(text) ? UNCHECKED : undefined),
  );
  const checked = Promise.all(
    [...unsure].map(async (text) => [text, await redaction.full(text)] as const),
  ).then((pairs) => {
    const full = new Map(pairs);
    return linesWith(records, (text) => full.get(text));
  });
  return { now, checked };
}

/** Whether any string or key inside `value` is one of `texts`. */
function holdsAny(value: unknown, texts: ReadonlySet<string>): boolean {
  if (typeof value === "string") return texts.has(value);
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return (value as unknown[]).some((item) => holdsAny(item, texts));
  return Object.keys(value).some(
    (key) => texts.has(key) || holdsAny((value as Record<string, unknown>)[key], texts),
  );
}

/** The record with every string in it UNCHECKED but its own `type`, which says what it is. */
function everyStringWithheld(record: object): object {
  const withheld = redactShared(record, () => UNCHECKED);
  const { type } = record as { type?: unknown };
  return typeof type === "string" ? { ...withheld, type } : withheld;
}

/** A copy of `value` whose entries under a `flagged` key say UNCHECKED; unchanged parts are shared. */
function withheldUnder<T>(value: T, flagged: (key: string) => boolean): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const items = (value as unknown[]).map((item) => withheldUnder(item, flagged));
    return (items.some((item, index) => item !== (value as unknown[])[index]) ? items : value) as T;
  }
  const copy: Record<string, unknown> = {};
  let changed = false;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const kept = flagged(key) ? UNCHECKED : withheldUnder(item, flagged);
    if (kept !== item) changed = true;
    defineEntry(copy, key, kept);
  }
  return (changed ? copy : value) as T;
}

/** redactedLine with the full rule set too, for a writer that can wait for it (a saved session). */
export async function fullyRedactedLine(record: object, redaction: RecordRedaction): Promise<string> {
  const { now, checked } = checkedLines([record], redaction);
  // A check that failed leaves the flagged strings out, as `now` has them.
  return ((await checked?.catch(() => now)) ?? now)[0] ?? "";
}

/** redactedPretty with the full rule set too: what a command prints of a server's content. */
export async function fullyRedactedPretty(value: unknown, redaction: RecordRedaction): Promise<string> {
  // Wrapped, so any JSON value can be given (structuredContent may be null).
  const line = await fullyRedactedLine({ value }, redaction);
  return JSON.stringify((JSON.parse(line) as { value?: unknown }).value ?? null, null, 2);
}

/**
 * A RecordRedaction for records known to hold nothing only the full rule set finds (made by
 * tests from plain text): the synchronous rules are all there is.
 */
export function syncRecordRedaction(redact: (text: string) => string): RecordRedaction {
  return {
    sync: redact,
    line: redact,
    mayFindMore: () => false,
    full: (text) => Promise.resolve(redact(text)),
  };
}

/**
 * The record serialized with each string redacted (a secret JSON would escape is still found),
 * and every string under a name that says it holds a secret taken out whole (see secretNamed).
 */
function eachStringRedacted(
  record: unknown,
  redact: (text: string) => string,
  eachKey?: (key: string) => void,
): string {
  const options: WalkOptions = {
    redactUnder: (object, key) => (secretNamed(object, key) ? concealed(redact) : undefined),
    ...(eachKey ? { seeKey: eachKey } : {}),
  };
  return JSON.stringify(redactShared(record, redact, options));
}

/** Shorter strings under a secret's name are left to the rules (`"auth": "none"`). */
const CONCEALED_MIN_CHARS = 6;
/** A quick test every secret name passes (see isSecretName's words): most keys go no further. */
const MAY_NAME_SECRET = /secret|pass|pwd|credential|token|key|auth/i;
/** The names of a name/value pair (`{"name": "AWS_SECRET_ACCESS_KEY", "value": "…"}`), and its value's. */
const PAIR_NAMES = ["name", "Name", "key", "Key"] as const;
const PAIR_VALUES = new Set(["value", "Value"]);

/**
 * Whether `object[key]` holds a secret by its name, read as isSecretName reads one: the key
 * (`AWS_SECRET_ACCESS_KEY`, `db_password`, `apiKey`), or the name beside a `value` (Kubernetes
 * and ECS environments). The patterns see a key and its value only when the line is read whole,
 * and a spelling they do not know (`MY_AWS_SECRET_ACCESS_KEY`) or a value they would cut short
 * went through. A name in capitals is read as an environment variable's (`STRIPE_KEY`).
 */
function secretNamed(object: Readonly<Record<string, unknown>>, key: string): boolean {
  if (namesSecret(key)) return true;
  if (!PAIR_VALUES.has(key)) return false;
  return PAIR_NAMES.some((name) => {
    const named = object[name];
    return typeof named === "string" && namesSecret(named);
  });
}

function namesSecret(name: string): boolean {
  const known = NAME_ANSWERS.get(name);
  if (known !== undefined) return known;
  const answer = readsAsSecretName(name);
  rememberShortAnswer(NAME_ANSWERS, name, answer);
  return answer;
}

function readsAsSecretName(name: string): boolean {
  if (!MAY_NAME_SECRET.test(name) || NAMES_A_LIST.test(name)) return false;
  return isSecretName(name, /^[A-Z0-9_]+$/.test(name) ? "environment" : "argument");
}

/**
 * namesSecret's answers so far, by name (see remembered-texts.ts): every key of every record is
 * read, and the same few (`jsonrpc`, `params`, `_meta`, `progressToken`) come back in each. The
 * answer depends on the name alone.
 */
const NAME_ANSWERS = new Map<string, boolean>();

/**
 * A plural names a list of them, not one (mcpterm's own `argumentSecrets` says which argument
 * held which kind): the secrets in it are found by their own names and the rules.
 */
const NAMES_A_LIST = /(?:secrets|tokens|credentials|passwords)$/i;

/** `redact`, with every string long enough to be a secret replaced whole. */
function concealed(redact: (text: string) => string): (text: string) => string {
  return (text) => (text.length >= CONCEALED_MIN_CHARS ? REDACTED : redact(text));
}

/**
 * The whole line redacted, so a key and its value are seen together. Where that breaks its JSON,
 * the line as it was, or with each of `steps` that keeps it JSON, in their order.
 */
function secondPass(
  line: string,
  redact: (text: string) => string,
  steps?: ReadonlyArray<(text: string) => string>,
): string {
  const whole = redact(line);
  if (whole === line) return line;
  if (isJson(whole)) return whole;
  let kept = line;
  for (const step of steps ?? []) {
    const next = step(kept);
    if (next !== kept && isJson(next)) kept = next;
  }
  return kept;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** redactedLine, indented for a person to read (`mcpterm call --json`, `mcpterm read --json`). */
export function redactedPretty(record: unknown, redact: (text: string) => string): string {
  return JSON.stringify(JSON.parse(redactedLine(record, redact)), null, 2);
}

/**
 * redactedPretty for output whose strings end up on a terminal (`mcpterm tools --json`): every
 * key and string also loses its terminal control sequences and has its invisible characters
 * written out (`⟨U+200B⟩`), so nothing in it can drive the terminal or pass unseen, and two keys
 * that differ only by such a character stay two keys.
 */
export function displayPretty(record: object, redact: (text: string) => string): string {
  return JSON.stringify(forDisplay(JSON.parse(redactedLine(record, redact))), null, 2);
}

function forDisplay(value: unknown): unknown {
  if (typeof value === "string") return displayText(value);
  if (Array.isArray(value)) return value.map(forDisplay);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [displayText(key), forDisplay(item)]));
}

function displayText(text: string): string {
  return sanitizeForTerminal(revealHiddenText(text));
}
