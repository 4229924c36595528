/**
 * Secrets found with plain patterns, synchronously. secretlint's preset (see redact-secrets.ts)
 * is the main rule set; these cover what it leaves out (current OpenAI and Anthropic key
 * formats, bare AWS key ids, bearer tokens, `password=` style assignments, PEM private keys)
 * and are cheap enough to run on every streamed delta and every trace line.
 */
import { safeDecodeUri } from "./known-secret-search.js";

export interface SecretPattern {
  rule: string;
  pattern: RegExp;
  /** 0: the whole match is the secret; 1: the first capture group that matched is. */
  group: 0 | 1;
  /**
   * A part every match of `pattern` contains (a literal prefix, or a piece of the pattern
   * itself): a text without it is passed over, which costs one quick scan instead of a replace.
   * test/policy/secret-pattern-pieces.test.ts checks it against every match.
   */
  piece: RegExp;
  /**
   * Whether a match can take in more than one string of a record's JSON line: a key and its
   * value (`"password":"…"`), two items (a private key's lines), a number after a key. The rest
   * match only within a run of characters that JSON writes as they are (no quote or backslash
   * in their classes, no space between JSON's tokens), and where a string's escape stands next
   * to such a run, the escape's last character (a letter or digit) takes away the boundary the
   * pattern starts or ends at: found in a serialized line, a match of theirs is one the string's
   * own text has. So a line whose every string and key went through all the patterns need be
   * read again only to learn whether these and the known values find anything (LINE_PATTERNS);
   * where they do, it is read with all patterns from the start, as every line once was;
   * test/policy/line-patterns.test.ts compares.
   */
  spansStrings: boolean;
}

/**
 * The names an assignment of a secret goes by (`token = …`, `SECRET_KEY = "…"`), as a regular
 * expression's alternation: the secret-assignment rule reads them, and the stream redactor holds
 * back such an assignment until its value has arrived (stream-redactor.ts, MULTI_WORD).
 */
export const SECRET_NAMES =
  "api[_-]?key|apikey|secret|client[_-]?secret|(?:aws[_-]?)?secret[_-]?access[_-]?key|secret[_-]?key(?:[_-]?base)?|access[_-]?token|auth[_-]?token|token|password|passwd|pwd";

/**
 * The names a secret keeps as the last words of a longer snake_case name (`DB_PASSWORD`,
 * `MYSQL_ROOT_PASSWORD`, `SERVICE_API_KEY`, `JWT_SECRET`, `GITHUB_ACCESS_TOKEN`). Not a bare
 * `token`: `next_page_token` and `max_token` are a cursor and a count, not secrets.
 */
const SECRET_NAME_ENDINGS =
  "password|passwd|pwd|secret|api[_-]?key|apikey|secret[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token";

/**
 * A secret's name in an assignment: one of SECRET_NAMES alone, or one of SECRET_NAME_ENDINGS after
 * snake_case words (`_` is a word character, so `\b` alone finds only a bare `password`). Each
 * word before it ends at its own `_`, so the words are read once, without backtracking.
 */
export const SECRET_NAME = String.raw`\b(?:(?:${SECRET_NAMES})|(?:[A-Za-z0-9]+_)+(?:${SECRET_NAME_ENDINGS}))\b`;

/**
 * `${NAME}` alone: a reference to a variable, not its value. Not `$NAME`, which a password that
 * starts with `$` looks like (`$uperSecretPassw0rd`).
 */
const VARIABLE_REFERENCE = String.raw`\$\{[A-Za-z_][A-Za-z0-9_]*\}`;

/**
 * A URL with a password in it; the password is group 1. It starts only where a run of scheme
 * characters starts (the lookbehind), so a long run without a match is scanned once.
 */
const URL_WITH_PASSWORD = String.raw`(?<![A-Za-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:([^/\s@]+)@`;

/**
 * An option named as a secret (see SECRET_FLAG), as a regular expression's source: the stream
 * redactor holds one back with its value (stream-redactor.ts, MULTI_WORD).
 */
export const SECRET_FLAG_NAME = String.raw`(?<![\w-])--(?!(?:no|skip|without|disable|ignore)[_-])(?:(?:${SECRET_NAMES})|(?:[A-Za-z0-9]+[_-])+(?:${SECRET_NAME_ENDINGS}))`;

/**
 * A command line's option named as a secret, with its value as the next word: `--password
 * hunter2`, `--db-password …`, `--api-key …` (the value is group 1). `--name=value` is an
 * assignment (the secret-assignment rule). Names are read as SECRET_NAME reads them, in kebab- or
 * snake_case, so `--max-tokens 100` and `--page-token …` are not secrets, nor is the value after
 * `--no-password` or `--skip-password`; a value that starts with `-` is the next option; a quoted
 * one is taken whole.
 */
const SECRET_FLAG = String.raw`${SECRET_FLAG_NAME}[ \t]+(?:"([^"\n]{6,})"|'([^'\n]{6,})'|((?!-)[^\s"'\\]{6,}))`;

/** A PEM private key's first line. */
const PRIVATE_KEY_HEADER = "-----BEGIN [A-Z ]*PRIVATE KEY-----";

/**
 * A private key from its first line to its last, or, cut short, up to the next key's first line
 * where all between is key material (base64, spaces, `\n` escapes, an encrypted key's headers;
 * never a quote, so it stays within a string of a JSON line). Read to its END alone, a text of
 * many first lines and no last (a hostile result) was read to its end from each of them, and a
 * megabyte took seconds; now each part of the text is read at most twice.
 */
const PRIVATE_KEY = new RegExp(
  [
    String.raw`${PRIVATE_KEY_HEADER}(?:(?!${PRIVATE_KEY_HEADER})[\s\S])*?-----END [A-Z ]*PRIVATE KEY-----`,
    String.raw`${PRIVATE_KEY_HEADER}(?:[A-Za-z0-9+/=:,\s-]|\\[nr])*?(?=${PRIVATE_KEY_HEADER})`,
  ].join("|"),
  "g",
);

/** An encrypted PEM key's header lines (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`), before its base64. */
// The line's text and its break kept apart: where both could take a space, a failed match
// tried every way of sharing them (25 header lines took 2.5 s).
const PEM_HEADERS = String.raw`(?:(?:Proc-Type|DEK-Info):[^\r\n\\]*(?:(?:\r?\n|\\[nr])[ \t]*)+)*`;

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    rule: "private-key",
    pattern: PRIVATE_KEY,
    group: 0,
    piece: /-----BEGIN /,
    spansStrings: true,
  },
  {
    // A key cut short (a truncated file, a result capped mid-key) is as secret as a whole one.
    rule: "private-key",
    pattern: new RegExp(
      String.raw`${PRIVATE_KEY_HEADER}(?:\s|\\[nr])*${PEM_HEADERS}[A-Za-z0-9+/=]{16,}(?:(?:\s|\\[nr])*[A-Za-z0-9+/=]+)*`,
      "g",
    ),
    group: 0,
    piece: /-----BEGIN /,
    spansStrings: true,
  },
  {
    rule: "anthropic-api-key",
    pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g,
    group: 0,
    piece: /sk-ant-/,
    spansStrings: false,
  },
  {
    rule: "openai-api-key",
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
    group: 0,
    piece: /sk-/,
    spansStrings: false,
  },
  {
    rule: "aws-access-key-id",
    pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
    group: 0,
    piece: /AKIA|ASIA/,
    spansStrings: false,
  },
  {
    rule: "github-token",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/g,
    group: 0,
    piece: /gh[pousr]_|github_pat_/,
    spansStrings: false,
  },
  {
    rule: "slack-token",
    pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
    group: 0,
    piece: /xox[abposr]-/,
    spansStrings: false,
  },
  {
    rule: "google-api-key",
    pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g,
    group: 0,
    piece: /AIza/,
    spansStrings: false,
  },
  { rule: "npm-token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, group: 0, piece: /npm_/, spansStrings: false },
  {
    rule: "gitlab-token",
    pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g,
    group: 0,
    piece: /glpat-/,
    spansStrings: false,
  },
  {
    rule: "huggingface-token",
    pattern: /\bhf_[A-Za-z0-9]{30,}\b/g,
    group: 0,
    piece: /hf_/,
    spansStrings: false,
  },
  {
    rule: "stripe-key",
    pattern: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{24,}\b/g,
    group: 0,
    piece: /[sr]k_(?:live|test)_/,
    spansStrings: false,
  },
  {
    rule: "sendgrid-key",
    pattern: /\bSG\.[\w-]{22}\.[\w-]{43}\b/g,
    group: 0,
    piece: /SG\./,
    spansStrings: false,
  },
  {
    rule: "shopify-token",
    pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g,
    group: 0,
    piece: /shp(?:at|ca|pa|ss)_/,
    spansStrings: false,
  },
  // Each of these two starts only where a run of its characters starts (the lookbehind), so a
  // long run without a match is scanned once, not once from every position in it.
  {
    rule: "jwt",
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
    group: 0,
    piece: /eyJ/,
    spansStrings: false,
  },
  {
    rule: "bearer-token",
    pattern: /\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)/g,
    group: 1,
    piece: /[Bb]earer\s/,
    spansStrings: false,
  },
  // An HTTP header's credentials other than a bearer token, under the header's own name only (a
  // `Basic` in prose is a word): `Authorization: Basic dXNlcjpwYXNz`, `{"Proxy-Authorization":
  // "Digest username=…"}`, and a cookie's whole value (`Cookie: sid=…; theme=dark`).
  {
    rule: "authorization-header",
    pattern: /authorization["']?\s*[:=]\s*["']?(?:basic|digest|negotiate|ntlm)\s+([^"'\n]{8,})/gi,
    group: 1,
    piece: /authorization/i,
    spansStrings: true,
  },
  {
    rule: "cookie-header",
    pattern: /\b(?:set-)?cookie["']?\s*:\s*["']?([^"'\n]{8,})/gi,
    group: 1,
    piece: /cookie/i,
    spansStrings: true,
  },
  {
    rule: "password-in-url",
    pattern: new RegExp(URL_WITH_PASSWORD, "g"),
    group: 1,
    piece: /:\/\/[^/\s:@]+:[^/\s@]+@/,
    spansStrings: true,
  },
  {
    // A server's command line (`doctor -- srv --password …`, a config's args), or usage in a result.
    rule: "secret-flag",
    pattern: new RegExp(SECRET_FLAG, "gi"),
    group: 1,
    // Every name above ends in one of these, and a space or a tab follows it.
    piece: /(?:word|wd|secret|key|token|base)[ \t]/i,
    // In a JSON line a quoted value's quotes are escaped, so a quote there is a string's own end:
    // the quoted forms are for a string read alone.
    spansStrings: false,
  },
  // ~/.netrc: `machine host login me password hunter2`, on one line or several.
  {
    rule: "netrc-password",
    pattern: /\b(?:machine|login)\s+\S+\s+(?:login\s+\S+\s+)?password\s+(\S+)/g,
    group: 1,
    piece: /password/,
    spansStrings: true,
  },
  // Docker's config.json keeps `user:password` in base64 under "auth".
  {
    rule: "docker-auth",
    pattern: /"(?:auth|identitytoken|registrytoken)"\s*:\s*"([A-Za-z0-9+/=_-]{12,})"/gi,
    group: 1,
    // The quoted name whole: `"progressToken"`, in every request mcpterm sends, is not one.
    piece: /"(?:auth|identitytoken|registrytoken)"/i,
    spansStrings: true,
  },
  {
    rule: "secret-assignment",
    pattern: new RegExp(
      // A quoted value that is only a reference to a variable (`"${API_KEY}"`, as a config or a
      // hint names one) holds no secret, as an unquoted one does not.
      String.raw`${SECRET_NAME}["']?\s*[:=]\s*(?:"(?!${VARIABLE_REFERENCE}")([^"\n]{6,})"|'(?!${VARIABLE_REFERENCE}')([^'\n]{6,})'|(?!(?:process\.env|os\.environ|import\.meta\.env|System\.getenv|getenv|ENV\[|\$\{?[A-Za-z_]))([^\s"',;]{8,}))`,
      "gi",
    ),
    group: 1,
    // Every name above ends in one of these words, followed by its `:` or `=`; the word begins a
    // word, follows a `_`, or follows the word a compound name puts before it without a separator
    // (`apikey`, `AccessToken`, `secret_keybase`). `progressToken`, in every request mcpterm
    // sends, does none of those, so a trace line holding it is not read through for an assignment
    // (most of the line pass over a tool call's records). AWS's secret key is here too:
    // secretlint finds it only within one string, and a record's key and value are two until its
    // line is read whole (`{"AWS_SECRET_ACCESS_KEY": "…"}`); secretlint has no rule for Django's
    // SECRET_KEY or Rails' secret_key_base at all.
    piece:
      /(?:\b|_|api|client|secret|access|auth|refresh|key)(?:key|base|secret|token|password|passwd|pwd)["']?\s*[:=]/i,
    spansStrings: true,
  },
];

export const REDACTED = "[REDACTED]";

export interface TextRedaction {
  text: string;
  /** The rule that matched, once per secret replaced. */
  rules: string[];
}

/**
 * The patterns a record's serialized line is read with again once each of its strings and keys
 * has been redacted with them all (see spansStrings).
 */
export const LINE_PATTERNS: readonly SecretPattern[] = SECRET_PATTERNS.filter((entry) => entry.spansStrings);

/** Replaces every match of `patterns` and every known secret value with [REDACTED]. */
export function redactWithPatterns(
  text: string,
  knownSecrets: readonly string[] = [],
  patterns: readonly SecretPattern[] = SECRET_PATTERNS,
  /** Each secret's line breaks kept after REDACTED, so the text keeps its lines (a file's citations). */
  { keepLines = false }: { keepLines?: boolean } = {},
): TextRedaction {
  const hidden = (secret: string): string =>
    keepLines ? `${REDACTED}${"\n".repeat(secret.split("\n").length - 1)}` : REDACTED;
  const rules: string[] = [];
  let result = text;
  for (const secret of knownSecrets) {
    if (secret.length < 8 || !result.includes(secret)) continue;
    const parts = result.split(secret);
    for (let count = 1; count < parts.length; count += 1) rules.push("known-secret");
    result = parts.join(hidden(secret));
  }
  for (const { rule, pattern, group, piece } of patterns) {
    if (!piece.test(result)) continue;
    result = result.replace(pattern, (match, ...captures: unknown[]) => {
      // The last two arguments are the offset and the whole input, not captures.
      const secret =
        group === 0 ? match : captures.slice(0, -2).find((capture) => typeof capture === "string");
      if (typeof secret !== "string" || secret === REDACTED || secret.includes(REDACTED)) return match;
      rules.push(rule);
      return match.replace(secret, hidden(secret));
    });
  }
  return { text: result, rules };
}

/** Words that name a secret wherever they stand in a name. */
const SECRET_WORDS = new Set([
  "secret",
  "secrets",
  "password",
  "passwords",
  "passwd",
  "pwd",
  "passphrase",
  "credential",
  "credentials",
  "token",
  "tokens",
  "apikey",
  "privatekey",
  "auth",
]);
/** Words before "key" that make it a credential in an argument's name (`api_key`, not `sort_key`). */
const KEY_QUALIFIERS = new Set([
  "api",
  "access",
  "private",
  "secret",
  "signing",
  "encryption",
  "auth",
  "client",
  "master",
  "license",
  "service",
  "account",
  "deploy",
  "ssh",
  "gpg",
  "pgp",
  "session",
  "subscription",
]);
/** Words before "token" that make it a place in a listing (`page_token`), not a secret. */
const CURSOR_WORDS = new Set([
  "page",
  "next",
  "prev",
  "previous",
  "continuation",
  "cursor",
  "sync",
  "resume",
  "start",
]);
/** What every shell exports about where it is: `PWD=/home/you/project` is a path, not a password. */
const SHELL_FOLDER_VARIABLES = new Set(["PWD", "OLDPWD"]);
/** Last words that make a name about a secret rather than the secret (`token_path`, `password_min_length`). */
const DESCRIBING_WORDS = new Set([
  "path",
  "file",
  "filename",
  "dir",
  "directory",
  "sock",
  "socket",
  "url",
  "uri",
  "name",
  "type",
  "length",
  "len",
  "count",
  "id",
  "size",
  "min",
  "max",
  "format",
  "mode",
  "prefix",
  "suffix",
  "enabled",
  "required",
  "policy",
  "expiry",
  "expires",
  "ttl",
  "hint",
  "label",
  "field",
  "header",
  "env",
  "var",
  "variable",
]);

/**
 * Whether a name says it holds a secret. It is read as words (`OPENAI_API_KEY`, `apiKey`,
 * `x-api-key`), so `KEYBOARD_LAYOUT` or `sortKey` do not count. A word such as `token` or
 * `password` counts unless the name ends in a word that describes it (`token_path`); `key`
 * counts after a qualifier (`api_key`, `private_key`) and, in an environment variable's name,
 * as its last word too (`STRIPE_KEY`), where that is how secrets are named; an argument named
 * just `key` is an object's or a cache entry's name. A paging `pageToken` is not a secret.
 * The answer depends on the name and `where` alone: the trace's redaction keeps it by name
 * (namesSecret in redacted-json.ts), for every session of the process.
 */
export function isSecretName(name: string, where: "environment" | "argument" = "environment"): boolean {
  // The shell's working folders: "pwd" means "password" in DB_PWD, never in these.
  if (where === "environment" && SHELL_FOLDER_VARIABLES.has(name)) return false;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
  const last = words.at(-1);
  if (last === undefined || (words.length > 1 && DESCRIBING_WORDS.has(last))) return false;
  // OTEL_EXPORTER_OTLP_HEADERS: the headers every export sends, a collector's API key among them.
  if (where === "environment" && OTLP_HEADERS.test(name)) return true;
  // `pageToken`, `nextToken`: a cursor through a listing, not a credential.
  if (words.length > 1 && last === "token" && CURSOR_WORDS.has(words.at(-2) ?? "")) return false;
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  return words.some(
    (word, index) =>
      word === "key" &&
      ((index > 0 && KEY_QUALIFIERS.has(words[index - 1] ?? "")) ||
        (where === "environment" && index === words.length - 1)),
  );
}

/**
 * The shortest value taken as a secret by where it comes from (its variable's name, a header, a
 * URL): shorter ones, redacted wherever they appear, would hide ordinary words and numbers.
 */
export const MIN_SECRET_CHARS = 8;

/**
 * Secret values in the environment, to redact wherever they appear: the values of variables
 * whose names say they hold a secret, and the password of any URL a variable holds
 * (`DATABASE_URL=postgres://app:s3cret-pw@db/app`), which shows up later without its URL.
 */
export function secretsFromEnvironment(env: Readonly<Record<string, string | undefined>>): string[] {
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (isSecretName(name) && value.length >= MIN_SECRET_CHARS) secrets.add(value);
    for (const part of headerListValues(name, value)) if (part.length >= MIN_SECRET_CHARS) secrets.add(part);
    for (const match of value.matchAll(URL_PASSWORD)) {
      const password = safeDecodeUri(match[1] ?? "");
      if (password.length >= MIN_SECRET_CHARS) secrets.add(password);
      if ((match[1] ?? "").length >= MIN_SECRET_CHARS) secrets.add(match[1] ?? "");
    }
  }
  return [...secrets];
}

const URL_PASSWORD = new RegExp(URL_WITH_PASSWORD, "gi");

/** OpenTelemetry's header variables: OTEL_EXPORTER_OTLP_HEADERS and the per-signal ones. */
const OTLP_HEADERS = /^OTEL_EXPORTER_OTLP_(?:[A-Z]+_)?HEADERS$/;

/**
 * Headers whose value is a credential, by name: Authorization, any whose words include a key,
 * token, secret, password, auth, signature or DSN (`x-api-key`, `signoz-ingestion-key`,
 * `x-instana-key`, `lightstep-access-token`, `uptrace-dsn`), and Honeycomb's `x-honeycomb-team`.
 * A tenant, a dataset name or a content type in the same variable is no secret.
 */
function credentialHeader(name: string): boolean {
  return (
    /^(?:proxy-)?authorization$|^x-honeycomb-team$/i.test(name) ||
    /(?:^|[-_])(?:api-?key|key|token|secret|password|passwd|pwd|auth|signature|dsn|credentials?)(?:$|[-_])/i.test(
      name,
    )
  );
}

/**
 * The credentials in a variable of headers written as OpenTelemetry writes them
 * (`x-honeycomb-team=abc…,authorization=Bearer%20xyz…`; OTEL_EXPORTER_OTLP_HEADERS, or any
 * `…_HEADERS`), as written and as sent, the credential after an auth scheme, and a user name a
 * DSN's URL carries (`https://TOKEN@api.uptrace.dev`): each shows up alone once it is a header.
 */
function headerListValues(name: string, value: string): string[] {
  if (!/HEADERS$/i.test(name)) return [];
  const values: string[] = [];
  for (const entry of value.split(",")) {
    const equals = entry.indexOf("=");
    if (equals <= 0 || !credentialHeader(safeDecodeUri(entry.slice(0, equals).trim()))) continue;
    const written = entry.slice(equals + 1).trim();
    const sent = safeDecodeUri(written);
    values.push(written, sent, sent.split(/\s+/).at(-1) ?? "", urlUser(sent));
  }
  return values;
}

/** The user name of a URL (`https://TOKEN@host`), decoded, or "". */
function urlUser(text: string): string {
  try {
    return safeDecodeUri(new URL(text).username);
  } catch {
    return "";
  }
}
