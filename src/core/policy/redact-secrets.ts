import type { lintSource } from "@secretlint/core";
import {
  LINE_PATTERNS,
  MIN_SECRET_CHARS,
  REDACTED,
  SECRET_PATTERNS,
  redactWithPatterns,
  secretsFromEnvironment,
  type TextRedaction,
} from "./secret-patterns.js";
import { SecretNeedle } from "./known-secret-search.js";
import { bareForms, throughHiding, throughHidingAsync } from "./hiding-secrets.js";
import { rememberShort } from "./remembered-texts.js";
import { SECRETLINT_SOURCE, secretlintMightReport } from "./secretlint-gate.js";
import type { RecordRedaction } from "./redacted-json.js";

/**
 * secretlint and its preset, loaded on first use rather than at start-up: only the full
 * (asynchronous) redaction of results and arguments needs them, never the first frame.
 */
let secretlint: Promise<{ lint: LintSource; config: SecretLintCoreConfig }> | undefined;
type LintSource = typeof lintSource;
type SecretLintCoreConfig = Parameters<LintSource>[0]["options"]["config"];

function loadSecretlint(): Promise<{ lint: LintSource; config: SecretLintCoreConfig }> {
  secretlint ??= Promise.all([
    import("@secretlint/core"),
    import("@secretlint/secretlint-rule-preset-recommend"),
    import("@secretlint/profiler"),
  ]).then(([core, preset, profiler]) => {
    // secretlint times every rule of every run with performance.mark and keeps the entries:
    // most of the cost of redacting a small result, and memory that grows with every call.
    profiler.secretLintProfiler.setEnabled(false);
    return {
      lint: core.lintSource,
      // The preset's rules one by one, without its comment filter: that drops findings under a
      // `secretlint-disable` comment, which in a repository is the author's say, but in a tool's
      // result is the server's, and a hostile one would write it above the key it wants shown.
      // (A preset's `disabled` for one of its rules is not honoured by secretlint 13.)
      config: {
        rules: preset.rules
          .filter((rule) => rule.meta.id !== COMMENT_FILTER_RULE)
          .map((rule) => ({ id: rule.meta.id, rule })),
      },
    };
  });
  return secretlint;
}

const COMMENT_FILTER_RULE = "@secretlint/secretlint-rule-filter-comments";

/** How many full redactions are remembered, and the longest text that is. */
const REMEMBERED_ANSWERS = 16;
const REMEMBERED_MAX_CHARS = 256 * 1024;

/**
 * secretlint's findings in `text`: the rule (without its package prefix) and the range. A text
 * its preset cannot report on (see secretlint-gate.ts) is not handed to it, nor is it loaded.
 */
async function lintSecrets(text: string): Promise<Array<{ rule: string; range: readonly [number, number] }>> {
  if (!secretlintMightReport(text)) return [];
  const { lint, config } = await loadSecretlint();
  const result = await lint({
    source: { content: text, ...SECRETLINT_SOURCE },
    options: { config, maskSecrets: false },
  });
  // secretlint drops a leading byte-order mark before it matches, so its ranges start one later
  // in the text itself: unshifted, a secret's last character stayed and the one before went.
  const shift = text.startsWith("\uFEFF") ? 1 : 0;
  return result.messages.map((message) => ({
    rule: message.ruleId.replace("@secretlint/secretlint-rule-", ""),
    range: [message.range[0] + shift, message.range[1] + shift] as const,
  }));
}

const TOKEN_CHARACTER = /[A-Za-z0-9+/=_-]/;

/**
 * Where the token that `end` falls inside ends. secretlint's aws rule reports a secret access
 * key's length from the start of `AWS_SECRET_ACCESS_KEY=`, so its range stops short of the key's
 * end, and the rest of the key would be shown.
 */
function tokenEnd(text: string, end: number): number {
  if (end === 0 || !TOKEN_CHARACTER.test(text.charAt(end - 1))) return end;
  let at = end;
  while (at < text.length && TOKEN_CHARACTER.test(text.charAt(at))) at += 1;
  return at;
}

/** How long a known value must be, with letters and digits, for its lowercase form to be masked too. */
const KEY_LIKE_CHARS = 12;

/**
 * Removes secrets from text before it reaches the model, the screen or the trace: secretlint's
 * recommended preset (a maintained rule set), then our own patterns and the values of secrets
 * this process knows (API keys from flags and environment).
 */
export class SecretRedactor {
  private readonly recent = new Map<string, TextRedaction>();
  private readonly clean = new Set<string>();
  /** Short texts secretlint's preset cannot report anything in, or found nothing in (see forRecords). */
  private readonly plain = new Set<string>();
  private readonly knownSecrets: string[];
  /** What redaction masks as it masks a known value: the known secrets and the withheld texts. */
  private readonly masked: string[];
  private needles: SecretNeedle[] | undefined;

  constructor(knownSecrets: readonly string[] = []) {
    this.knownSecrets = [...knownSecrets];
    this.masked = [];
    for (const secret of knownSecrets) this.maskKnown(secret);
  }

  /**
   * A secret learned while running, such as an OAuth token just issued or refreshed: redacted
   * from now on like the ones known at the start.
   */
  learn(secret: string): void {
    if (secret.length < MIN_SECRET_CHARS || this.knownSecrets.includes(secret)) return;
    this.knownSecrets.push(secret);
    this.needles = undefined;
    this.maskKnown(secret);
  }

  /**
   * A text that holds a known secret in a form no rule finds (a part of a key a call's
   * arguments carry, found by the argument scan): masked whole from now on wherever it shows,
   * as a known value is (the approval panel, a result that says it back, the trace's frame of
   * the request), but not itself looked for in disguise as a secret is.
   */
  withhold(text: string): void {
    if (text.length >= MIN_SECRET_CHARS) this.mask(text);
  }

  /**
   * A known secret, and, for a token (letters and digits, KEY_LIKE_CHARS or more), its lowercase
   * form: a value a `${VAR}` put in a URL's host comes back lowercased wherever the URL was
   * parsed (`new URL`, a DNS error naming the host). Not a word-like password
   * (`POSTGRES_PASSWORD=Postgres`): its lowercase form is a word, in every text.
   */
  private maskKnown(secret: string): void {
    this.mask(secret);
    const lower = secret.toLowerCase();
    if (lower !== secret && secret.length >= KEY_LIKE_CHARS && /\d/.test(secret) && /\p{L}/u.test(secret))
      this.mask(lower);
  }

  private mask(text: string): void {
    if (this.masked.includes(text)) return;
    // Longest first: a withheld text may hold a known key, and masked after it would no longer be itself.
    const at = this.masked.findIndex((other) => other.length < text.length);
    this.masked.splice(at === -1 ? this.masked.length : at, 0, text);
    // A remembered redaction predates it and could still hold it.
    this.recent.clear();
    this.clean.clear();
  }

  /**
   * A redactor that also knows the API keys in use, every secret-looking environment value and
   * any other values the caller knows to be secret (such as a config's header values).
   */
  static forSession(
    apiKeys: ReadonlyArray<string | undefined>,
    env: NodeJS.ProcessEnv,
    otherSecrets: readonly string[] = [],
  ): SecretRedactor {
    const keys = apiKeys.filter((key): key is string => key !== undefined && key !== "");
    return new SecretRedactor([...new Set([...keys, ...secretsFromEnvironment(env), ...otherSecrets])]);
  }

  /** The secret values this redactor knows (API keys, environment and config secrets). */
  get knownValues(): readonly string[] {
    return this.knownSecrets;
  }

  /** The known values in the forms they are looked for in disguise (see SecretHaystack), made once. */
  get knownNeedles(): readonly SecretNeedle[] {
    this.needles ??= this.knownSecrets.map((secret) => new SecretNeedle(secret));
    return this.needles;
  }

  /** Known secrets with whitespace inside, which streamed text must hold back on (StreamRedactor). */
  get spacedSecrets(): string[] {
    return this.knownSecrets.filter((secret) => /\s/.test(secret));
  }

  /**
   * Full redaction, for tool results and anything else that is not on a hot path. The last few
   * answers are remembered: one result is redacted for the model, the screen and the trace.
   */
  async redact(text: string): Promise<TextRedaction> {
    const remembered = this.recent.get(text);
    if (remembered) return { text: remembered.text, rules: [...remembered.rules] };
    const { redaction: direct, linted } = await this.redactAsIs(text);
    const redaction = await throughHidingAsync(
      direct,
      async (bare) => (await this.redactAsIs(bare)).redaction,
    );
    // Found clean once, found clean again: forRecords need not ask a second time.
    if (!linted && redaction === direct) rememberShort(this.plain, text);
    if (text.length <= REMEMBERED_MAX_CHARS) {
      if (this.recent.size >= REMEMBERED_ANSWERS) this.recent.delete(this.recent.keys().next().value ?? "");
      this.recent.set(text, redaction);
    }
    return redaction;
  }

  /**
   * secretlint's findings and the patterns' in the text as it is (throughHiding reads the rest),
   * and whether secretlint found any.
   */
  private async redactAsIs(text: string): Promise<{ redaction: TextRedaction; linted: boolean }> {
    const ranges = (await lintSecrets(text)).sort((a, b) => b.range[0] - a.range[0]);
    const rules: string[] = [];
    // From the end, skipping overlaps; the pieces are joined once, not the text rebuilt per match
    // (40,000 matches in a 1.6 MB resource took 11 s that way).
    const pieces: string[] = [];
    let lastStart = text.length;
    for (const { rule, range } of ranges) {
      const [start, reported] = range;
      if (reported > lastStart) continue;
      const end = Math.min(tokenEnd(text, reported), lastStart);
      pieces.push(text.slice(end, lastStart), REDACTED);
      rules.push(rule);
      lastStart = start;
    }
    pieces.push(text.slice(0, lastStart));
    const patterned = redactWithPatterns(pieces.reverse().join(""), this.masked);
    return {
      redaction: { text: patterned.text, rules: [...rules, ...patterned.rules] },
      linted: ranges.length > 0,
    };
  }

  /**
   * The rules that match in each of `texts`, found with one secretlint run over all of them
   * (its cost is mostly per run, and a call's arguments are many short strings), and each text
   * as the synchronous rules mask it.
   */
  async rulesIn(texts: readonly string[]): Promise<TextRedaction[]> {
    const starts: number[] = [];
    let offset = 0;
    for (const text of texts) {
      starts.push(offset);
      offset += text.length + 1;
    }
    const found = texts.map((text) => {
      const { text: masked, rules } = this.redactSync(text);
      return { text: masked, rules: [...rules] };
    });
    for (const { rule, range } of await lintSecrets(texts.join("\n"))) {
      let index = starts.length - 1;
      while (index > 0 && (starts[index] ?? 0) > range[0]) index -= 1;
      found[index]?.rules.push(rule);
    }
    return found;
  }

  /** Pattern and known-value redaction only: synchronous, for streamed text and trace lines. */
  redactSync(text: string): TextRedaction {
    if (this.clean.has(text)) return { text, rules: [] };
    const redaction = throughHiding(redactWithPatterns(text, this.masked), (bare) =>
      redactWithPatterns(bare, this.masked),
    );
    if (redaction.rules.length === 0) rememberShort(this.clean, text);
    return redaction;
  }

  /** redactSync's text alone, bound, to hand over as a `(text) => text` callback. */
  readonly redactText = (text: string): string => (this.clean.has(text) ? text : this.redactSync(text).text);

  /**
   * How a file of records (the trace, a saved session) is redacted: synchronously where that is
   * all there is to do, with the full rule set for a string secretlint's preset might find
   * something in (a Linear or Slack token the patterns do not know). Short texts found to need
   * no more are remembered, like the clean ones: the same few come back in every record.
   */
  readonly forRecords: RecordRedaction = {
    sync: this.redactText,
    line: (text) =>
      // A line those leave alone, every pattern leaves alone (see spansStrings). Where they find
      // something, the line is read with every pattern from the start, in their order: what one
      // takes out changes what the next can match (a token glued to a private key's END line).
      redactWithPatterns(text, this.masked, LINE_PATTERNS).text === text
        ? text
        : redactWithPatterns(text, this.masked).text,
    lineSteps: [
      (text) => redactWithPatterns(text, this.masked, []).text,
      ...SECRET_PATTERNS.map((pattern) => (text: string) => redactWithPatterns(text, [], [pattern]).text),
    ],
    mayFindMore: (text) => {
      if (this.plain.has(text)) return false;
      // What hides in it too: a token split by zero-width characters is whole once they go.
      const might = secretlintMightReport(text) || bareForms(text).some(secretlintMightReport);
      if (!might) rememberShort(this.plain, text);
      return might;
    },
    full: async (text) => (await this.redact(text)).text,
  };
}
