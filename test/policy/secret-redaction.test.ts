import { describe, expect, it } from "vitest";
import { sanitizeForTerminal } from "../../src/core/policy/sanitize-terminal.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { canonicalJson } from "../../src/core/policy/canonical-json.js";
import { RepeatDetector } from "../../src/core/policy/repeat-detector.js";
import {
  isSecretName,
  redactWithPatterns,
  secretsFromEnvironment,
} from "../../src/core/policy/secret-patterns.js";

const GITHUB = `ghp_${"a1B2c3D4".repeat(4)}abcd`;

/** Text written in Unicode tag characters, which draw as nothing. */
const tagged = (text: string): string =>
  Array.from(text, (character) => String.fromCodePoint(0xe0000 + character.charCodeAt(0))).join("");

describe("SecretRedactor", () => {
  it.each([
    [`key sk-proj-${"x9Y".repeat(12)} end`, "openai-api-key"],
    [`sk-ant-api03-${"Zz9".repeat(10)}`, "anthropic-api-key"],
    ["AKIAIOSFODNN7EXAMPLQ", "aws-access-key-id"],
    [`token ${GITHUB}`, "github"],
    ["https://user:hunter2@example.com/x", "basicauth"],
    ["Authorization: Bearer abcdefghijklmnop1234567890", "bearer-token"],
    ["Authorization: Basic dXNlcjpwYXNzd29yZA==", "authorization-header"],
    ['{"headers":{"Proxy-Authorization":"Basic dXNlcjpwYXNz"}}', "authorization-header"],
    ["Cookie: sid=abcdef0123456789", "cookie-header"],
    ['{"cookie":"session=abcdef0123456789"}', "cookie-header"],
    ['{"password": "correct horse battery"}', "secret-assignment"],
    ["-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----", "private-key"],
    [`xoxb-123456789012-123456789012-${"a".repeat(24)}`, "slack"],
    // Cut short, with the newlines still JSON-escaped as in a tool result.
    ["-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE", "private-key"],
    ["machine api.example.com login ann password hunter2hunter2", "netrc-password"],
    ["machine example.com\n  login ann\n  password s3cr3t-pw", "netrc-password"],
    ['{"auths":{"ghcr.io":{"auth":"YW5uOnMzY3IzdC1wYXNzd29yZA=="}}}', "docker-auth"],
    // A bare token= in a URL's query, as remote MCP servers are often given one.
    ["https://mcp.example.com/mcp?token=tk_9f8e7d6c5b4a3210", "secret-assignment"],
    ["SECRET_KEY = 'django-insecure-x9y8z7w6v5u4'", "secret-assignment"],
    [`secret_key_base: ${"0f1e2d3c".repeat(8)}`, "secret-assignment"],
    // A name's last words say what it holds, however many words come before them.
    ["DB_PASSWORD=Tr0ub4dor-and-3", "secret-assignment"],
    ["POSTGRES_PASSWORD: correct-horse-battery", "secret-assignment"],
    ['MYSQL_ROOT_PASSWORD="s3cr3t-root-pw"', "secret-assignment"],
    ["SERVICE_API_KEY=abcd1234efgh5678", "secret-assignment"],
    ["db_password = Tr0ub4dor-and-5", "secret-assignment"],
    ["JWT_SECRET=f8a7c6e5d4b3a291", "secret-assignment"],
    ["GITHUB_ACCESS_TOKEN=abcdef1234567890", "secret-assignment"],
    // An option named as a secret, its value the next word: a server's command line.
    ["node build/srv.js --password hunter2hunter2", "secret-flag"],
    ["srv --db-password Tr0ub4dor-and-3 --verbose", "secret-flag"],
    ["mysql --user ann --api_key abcd1234efgh", "secret-flag"],
  ])("redacts %j (%s)", async (text, rule) => {
    const result = await new SecretRedactor().redact(text);
    expect(result.text).toContain("[REDACTED]");
    expect(result.rules.join(",")).toContain(rule);
  });

  it.each([
    "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzzzzzzzzz",
    'export AWS_SECRET_ACCESS_KEY="wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzzzzzzzzz"',
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzzzzzzzzz",
    "SecretAccessKey: wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzzzzzzzzz, region: eu",
  ])("leaves no part of an AWS secret access key: %j", async (text) => {
    const result = await new SecretRedactor().redact(text);
    expect(result.rules).toContain("aws");
    expect(result.text).not.toMatch(/zzzz|CYz|bPx/);
  });

  it.each([
    "max_tokens=4096",
    "PASSWORD_MIN_LENGTH=12345678",
    "password_policy=strict-mode-on",
    "tokens_used=123456789",
    '{"next_page_token": "CgwI8tqLsgYQgPbxuAI"}',
    "max_token=128000000",
    // A scheme's word in prose, and a cookie named without a header's colon.
    "Basic authentication is configured per realm",
    "the Authorization header uses Basic auth",
    "cookie consent banner shown on the landing page",
  ])("leaves a name that is not a secret's alone (a limit, a count, a cursor): %j", async (text) => {
    expect((await new SecretRedactor().redact(text)).text).toBe(text);
  });

  it.each([
    '"env": { "WEATHER_API_KEY": "${WEATHER_API_KEY}" }',
    'WEATHER_API_KEY="${WEATHER_API_KEY}" node server.js',
    "password: '${DB_PASSWORD}'",
  ])("leaves a secret's name given a reference to a variable alone, not its value: %j", async (text) => {
    expect((await new SecretRedactor().redact(text)).text).toBe(text);
  });

  it.each([
    '"API_KEY": "${API_KEY:-sk-live-4f9a8b7c6d5e}"',
    '"API_KEY": "$abc123realsecretvalue"',
    'password="$uperSecretPassw0rd"',
    "DB_PASSWORD='$hunter2hunter2'",
    '"auth_token": "$AAAAAAAAAAAAAAAAAAAAAAAA"',
  ])("still redacts a quoted value that only starts like a reference: %j", async (text) => {
    const redacted = (await new SecretRedactor().redact(text)).text;
    expect(redacted).toContain("[REDACTED]");
    expect(redacted).not.toMatch(/4f9a8b7c6d5e|realsecret|uperSecret|hunter2|AAAAAAAA/);
  });

  it("redacts the values of secrets it was told about and leaves ordinary text alone", async () => {
    const redactor = new SecretRedactor(["my-very-own-key-123"]);
    expect((await redactor.redact("a my-very-own-key-123 b")).text).toBe("a [REDACTED] b");
    const plain = "The filesystem server listed 3 files: a.md, b.md, c.md.";
    expect(await redactor.redact(plain)).toEqual({ text: plain, rules: [] });
  });

  it("redacts a known value lowercased too, as a URL's host comes back once parsed", () => {
    const redactor = new SecretRedactor(["Xk9TqP2mLw7Rz4Vb"]);
    redactor.learn("OAuthIssuedToken42");
    const error = "getaddrinfo ENOTFOUND xk9tqp2mlw7rz4vb.mcp.example.com (oauthissuedtoken42)";
    expect(redactor.redactSync(error).text).toBe(
      "getaddrinfo ENOTFOUND [REDACTED].mcp.example.com ([REDACTED])",
    );
    // A word-like password is masked as written only: lowercased, it is a word of every text.
    const words = new SecretRedactor(["Postgres", "Development", "Welcome1"]);
    const text = "connect to postgres://app@db/postgres; mode=development; say welcome1";
    expect(words.redactSync(text).text).toBe(text);
  });

  it("finds secret-looking environment variables", () => {
    expect(
      secretsFromEnvironment({ OPENAI_API_KEY: "sk-1234567890", PATH: "/usr/bin", GH_TOKEN: "short" }),
    ).toEqual(["sk-1234567890"]);
  });

  it("reads PWD, OLDPWD and the ssh agent's socket as places, DB_PWD as a password", () => {
    expect(
      secretsFromEnvironment({ PWD: "/home/you/project", OLDPWD: "/home/you", DB_PWD: "hunter2-secret" }),
    ).toEqual(["hunter2-secret"]);
    // Where a secret lives is not the secret: the ssh agent's socket, systemd's credentials folder.
    expect(
      secretsFromEnvironment({
        SSH_AUTH_SOCK: "/tmp/ssh-XXXXabcd/agent.1234",
        CREDENTIALS_DIRECTORY: "/run/credentials/app.service",
      }),
    ).toEqual([]);
  });

  it("takes a collector's headers (OTEL_EXPORTER_OTLP_HEADERS) as secrets, whole and each value", () => {
    expect(
      secretsFromEnvironment({
        OTEL_EXPORTER_OTLP_HEADERS: "x-honeycomb-team=hcteamkey-0123456789abcdef,x-tenant=production",
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: "authorization=Bearer%20collectortok-99887766",
        OTEL_EXPORTER_OTLP_LOGS_HEADERS: "x-api-key=logs-key-12345678",
      }),
    ).toEqual([
      "x-honeycomb-team=hcteamkey-0123456789abcdef,x-tenant=production",
      "hcteamkey-0123456789abcdef",
      "authorization=Bearer%20collectortok-99887766",
      "Bearer%20collectortok-99887766",
      "Bearer collectortok-99887766",
      "collectortok-99887766",
      "x-api-key=logs-key-12345678",
      "logs-key-12345678",
    ]);
    // Vendors' own key headers, and a DSN whose URL carries the token as its user name.
    expect(
      secretsFromEnvironment({
        OTEL_EXPORTER_OTLP_TRACES_HEADERS:
          "signoz-ingestion-key=ingest-SeCrEt-abcdef123456,x-instana-key=instana-key-987654,uptrace-dsn=https://uptrace-tok-4242@api.uptrace.dev",
      }),
    ).toEqual(
      expect.arrayContaining(["ingest-SeCrEt-abcdef123456", "instana-key-987654", "uptrace-tok-4242"]),
    );
    // Another program's header variable: its credentials, not its other values.
    expect(
      secretsFromEnvironment({
        UPSTREAM_HEADERS: "authorization=Bearer%20q8Zx3Lm9Tp2Vr7Ws,accept=application/json",
        CORS_ALLOWED_HEADERS: "Content-Type,Authorization",
        MY_SERVICE_HEADERS: "accept=application/json,x-tenant=production",
      }),
    ).toEqual(["Bearer%20q8Zx3Lm9Tp2Vr7Ws", "Bearer q8Zx3Lm9Tp2Vr7Ws", "q8Zx3Lm9Tp2Vr7Ws"]);
  });

  it("takes the password out of any URL in the environment, plain and decoded", () => {
    expect(
      secretsFromEnvironment({ DATABASE_URL: "postgres://app:p%40ss-word-1@db:5432/app", HOME: "/root" }),
    ).toEqual(["p@ss-word-1", "p%40ss-word-1"]);
    expect(secretsFromEnvironment({ SITE: "https://example.com/a:b@c" })).toEqual([]);
  });

  it("redacts a secret a tool's result puts under a secretlint-disable comment", async () => {
    const redactor = new SecretRedactor();
    for (const comment of [
      "// secretlint-disable",
      "/* secretlint-disable */",
      "# secretlint-disable docker",
    ]) {
      const text = `${comment}\ndckr_pat_abcdefghijklmnopqrstuvwxyz1 tail\n// secretlint-enable`;
      expect((await redactor.redact(text)).text).not.toContain("dckr_pat_");
    }
  });

  it("redacts exactly the secret in a text that starts with a byte-order mark", async () => {
    const redactor = new SecretRedactor();
    expect((await redactor.redact("\ufeffdckr_pat_abcdefghijklmnopqrstuvwxyz1 tail")).text).toBe(
      "\ufeff[REDACTED] tail",
    );
    expect((await redactor.redact("\ufeffline\npostgres://app:Zq8xPw3rQQ@db.internal/app")).text).not.toMatch(
      /Zq8xPw3rQQ|line\[|\]p$/,
    );
  });

  it("leaves prose about passwords and auth alone", async () => {
    const prose =
      'Log in with your password as usual; the "auth" step is next. machine learning is fun. max tokens=128000, token: the unit.';
    expect(await new SecretRedactor().redact(prose)).toEqual({ text: prose, rules: [] });
  });

  it("reads an option's value as a secret only after an option named as one", () => {
    const line = "srv --password hunter2hunter2 --port 8080";
    expect(redactWithPatterns(line)).toEqual({
      text: "srv --password [REDACTED] --port 8080",
      rules: ["secret-flag"],
    });
    const ordinary =
      "srv --max-tokens 128000 --page-token abcdef123 --token-file /run/tok --password --verbose --key-name deploy-key --skip-password mydatabase";
    expect(redactWithPatterns(ordinary)).toEqual({ text: ordinary, rules: [] });
    expect(
      redactWithPatterns(`srv --password "hunter2 hunter2" --db-password 'hun"ter2x' --port 80`),
    ).toEqual({
      text: `srv --password "[REDACTED]" --db-password '[REDACTED]' --port 80`,
      rules: ["secret-flag", "secret-flag"],
    });
  });

  it.each([
    ["a zero-width space", "\u200b"],
    ["a soft hyphen", "\u00ad"],
    ["a BiDi mark", "\u200f"],
    ["a tag character", "\u{e0020}"],
    ["a bell", "\u0007"],
    ["an escape sequence", "\u001b[0m"],
    ["an emoji variation selector", "\ufe0f"],
    ["a grapheme joiner and a non-joiner", "\u034f\u200c"],
    ["a combining accent and a non-joiner", "\u0300\u200c"],
  ])("finds a secret split by %s, which a terminal and the model read whole", async (_, by) => {
    const key = `sk-proj-${"Ab3dEf6hIj9kLm2nOp5q".repeat(3)}`;
    const split = (text: string): string => (text.match(/.{1,5}/g) ?? []).join(by);
    const known = new SecretRedactor([key]);
    const shown = (text: string): string => sanitizeForTerminal(text);
    for (const redactor of [known, new SecretRedactor()]) {
      const text = `value: ${split(key)} and more`;
      expect(shown(redactor.redactSync(text).text)).toBe("value: [REDACTED] and more");
      expect(shown((await redactor.redact(text)).text)).toBe("value: [REDACTED] and more");
      expect(shown(redactor.redactText(text))).not.toContain(key.slice(8));
    }
    // A shape only secretlint's preset knows, split so its gate would not see it either.
    const linear = `lin_api_${"a1b2c3d4e5".repeat(4)}`;
    const text = `secretlint: ${split(linear)}`;
    expect(new SecretRedactor().forRecords.mayFindMore(text)).toBe(true);
    expect(shown((await new SecretRedactor().redact(text)).text)).toBe("secretlint: [REDACTED]");
  });

  it.each([
    ["whole", (key: string) => tagged(key)],
    ["but its prefix", (key: string) => `${key.slice(0, 8)}${tagged(key.slice(8))}`],
    [
      "every other character",
      (key: string) => Array.from(key, (c, i) => (i % 2 === 0 ? c : tagged(c))).join(""),
    ],
  ])(
    "finds a secret spelled in tag characters, %s: ASCII in disguise that a model reads",
    async (_, spell) => {
      const key = `sk-proj-${"Ab3dEf6hIj9kLm2nOp5q".repeat(3)}`;
      const spelled = spell(key);
      const redactor = new SecretRedactor();
      for (const redaction of [
        redactor.redactSync(`note: ${spelled}`),
        await redactor.redact(`note: ${spelled}`),
      ]) {
        expect(redaction.rules.length).toBeGreaterThan(0);
        expect(redaction.text).not.toMatch(/[\u{e0000}-\u{e007f}]/u);
        expect(redaction.text).toContain("[REDACTED]");
      }
    },
  );

  it("leaves what hides in a text where it hides no secret", async () => {
    const text = "👩\u200d💻 می\u200cخواهم and a\u200bb, \u001b[1mbold\u001b[0m";
    const redactor = new SecretRedactor();
    expect(redactor.redactSync(text)).toEqual({ text, rules: [] });
    expect(await redactor.redact(text)).toEqual({ text, rules: [] });
  });

  it("does not redact twice", () => {
    const once = redactWithPatterns("password=[REDACTED]");
    expect(once).toEqual({ text: "password=[REDACTED]", rules: [] });
  });
});

describe("RepeatDetector", () => {
  it("counts identical calls regardless of key order", () => {
    const detector = new RepeatDetector(3);
    expect(detector.record("t", { a: 1, b: [1, { c: 2 }] })).toBe(1);
    expect(detector.record("t", { b: [1, { c: 2 }], a: 1 })).toBe(2);
    expect(detector.record("t", { a: 2 })).toBe(1);
    expect(detector.record("u", { a: 1, b: [1, { c: 2 }] })).toBe(1);
    expect(canonicalJson({ z: 1, a: { y: 2, b: 3 } })).toBe('{"a":{"b":3,"y":2},"z":1}');
  });
});

describe("isSecretName", () => {
  it.each([
    ["OPENAI_API_KEY", true, true],
    ["AWS_SECRET_ACCESS_KEY", true, true],
    ["GITHUB_TOKEN", true, true],
    ["DB_PASSWORD", true, true],
    ["apiKey", true, true],
    ["x-api-key", true, true],
    ["client_secret", true, true],
    // An environment variable named *_KEY is how secrets are named there; an argument is not.
    ["STRIPE_KEY", true, false],
    ["sortKey", true, false],
    ["cache_key", true, false],
    // Read as words, and a name about a secret is not the secret.
    ["KEYBOARD_LAYOUT", false, false],
    ["GITHUB_TOKEN_PATH", false, false],
    ["token_file", false, false],
    ["passwordMinLength", false, false],
    ["keyPath", false, false],
    // Paging cursors and object names, which ordinary list and storage calls send.
    ["pageToken", false, false],
    ["next_token", false, false],
    ["key", true, false],
    // Headers for a service, written as OpenTelemetry writes them: a collector's key among them.
    ["OTEL_EXPORTER_OTLP_HEADERS", true, false],
    ["OTEL_EXPORTER_OTLP_TRACES_HEADERS", true, false],
    ["MY_SERVICE_HEADERS", false, false],
    ["headers", false, false],
    ["x-header", false, false],
  ])("%s: environment %s, argument %s", (name, environment, argument) => {
    expect(isSecretName(name)).toBe(environment);
    expect(isSecretName(name, "argument")).toBe(argument);
  });

  it("leaves code that reads a secret from the environment alone", () => {
    for (const code of [
      "password = process.env.PASSWORD",
      'token = os.environ["TOKEN"]',
      "api_key=$API_KEY_VALUE",
      "secret: ${SECRET}",
    ])
      expect(redactWithPatterns(code)).toEqual({ text: code, rules: [] });
  });
});
