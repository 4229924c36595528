import { describe, expect, it } from "vitest";
import { checkedLines, redactedLine, type RecordRedaction } from "../../src/core/policy/redacted-json.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { LINE_PATTERNS, redactWithPatterns, SECRET_PATTERNS } from "../../src/core/policy/secret-patterns.js";
import { SECRET_SAMPLES } from "../support/secret-samples.js";

/** A known value JSON has to escape: found in a line as the line writes it, or in a string. */
const KNOWN = 'known"value\\with-escapes-0123';

/** What stands next to a piece of a secret: JSON escapes of every kind, separators, nothing. */
const EDGES = [
  "",
  "\n",
  "\t",
  "\u0001",
  "\u001b",
  '"',
  "\\",
  "\u2028",
  "\u00a0",
  " ",
  "x",
  "=",
  ":",
  "'",
  "{",
];

/** The same rules with the line read again by every pattern, as before LINE_PATTERNS. */
function everyPatternAgain(redaction: RecordRedaction): RecordRedaction {
  return { ...redaction, line: redaction.sync };
}

/** A small seeded generator, so a failure names a batch that comes back the same. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Records with secrets and their pieces in every place a record has: values, keys, both, items. */
function hostileRecords(next: () => number, count: number): object[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const texts = [...SECRET_SAMPLES, KNOWN, "Bearer", "password", "machine host login ann"];
  const records: object[] = [];
  for (let index = 0; index < count; index += 1) {
    const text = pick(texts);
    const cut = Math.floor(next() * (text.length + 1));
    const [left, right] = [pick(EDGES) + text.slice(0, cut), text.slice(cut) + pick(EDGES)];
    const whole = pick(EDGES) + text + pick(EDGES);
    const glued = pick([
      "",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.s1gnatures1gnature",
      "AKIAIOSFODNN7EXAMPLQ",
    ]);
    const shapes: object[] = [
      { type: "event", a: "-----BEGIN RSA PRIVATE KEY-----", b: `-----END RSA PRIVATE KEY-----${glued}` },
      { type: "event", text: `${JSON.stringify(KNOWN).slice(1, -1)}${glued}` },
      { type: "event", text: whole },
      { type: "event", [whole]: true },
      { type: "event", [left]: right },
      { type: "event", items: [left, right] },
      { type: "event", a: left, b: right },
      { type: "event", params: { arguments: { [left]: right, text: whole } } },
      { type: "event", env: [{ name: left, value: right }] },
      { type: "event", [pick(["password", "api_key", "token", "auth", "secret"])]: 1234567890123 },
      { type: "event", [left]: Number.parseInt(right, 36) || 12345678901 },
    ];
    records.push(pick(shapes));
  }
  return records;
}

describe("a record's line read again with LINE_PATTERNS alone", () => {
  it("comes out as when every pattern read it again, on thousands of hostile batches", async () => {
    const redactor = new SecretRedactor([KNOWN]);
    const next = random(20261203);
    let changedByLine = 0;
    for (let batch = 0; batch < 1500; batch += 1) {
      const records = hostileRecords(next, 1 + Math.floor(next() * 4));
      const fewer = checkedLines(records, redactor.forRecords);
      const every = checkedLines(records, everyPatternAgain(redactor.forRecords));
      const context = JSON.stringify(records);
      expect(fewer.now, context).toEqual(every.now);
      expect(await fewer.checked, context).toEqual(await every.checked);
      const firstPassOnly = checkedLines(records, { ...redactor.forRecords, line: (text) => text });
      if (firstPassOnly.now.join("\n") !== fewer.now.join("\n")) changedByLine += 1;
    }
    // The batches hold secrets only a line's second reading finds (a key and its value), so the
    // comparison covers what that reading does, not only lines it leaves alone.
    expect(changedByLine).toBeGreaterThan(50);
  });

  it("reads a line with every pattern again where the spanning ones took something out", async () => {
    const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${"s1gnature".repeat(3)}`;
    const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    // A private key spread over two items, a token glued to its END line; a known value as JSON
    // spells it (a literal \n, as a PEM key is kept in an environment variable), a token after it.
    const escapedKnown = "s3cr3t\\npart2X";
    const redactor = new SecretRedactor([escapedKnown]);
    const records = [
      { a: "-----BEGIN EC PRIVATE KEY-----", b: `-----END EC PRIVATE KEY-----${jwt}` },
      { text: `s3cr3t\npart2X${token}` },
      // Taken out first, the key would leave `_x://u:p` to the URL rule, whose match over the
      // line breaks its JSON, and the line's second reading would be dropped whole.
      {
        items: [
          "-----BEGIN RSA PRIVATE KEY-----",
          "MIIEowIBAAKCAQEA",
          `-----END RSA PRIVATE KEY-----${jwt}_x://u:p`,
        ],
        k: "@v",
      },
    ];
    const fewer = checkedLines(records, redactor.forRecords);
    const every = checkedLines(records, everyPatternAgain(redactor.forRecords));
    expect(fewer.now).toEqual(every.now);
    const checked = await fewer.checked;
    expect(checked).toEqual(await every.checked);
    const lines = [...fewer.now, ...(checked ?? [])].join("\n");
    expect(lines).not.toContain("eyJzdWIi");
    expect(lines).not.toContain("abcdefghijklmnop");
    expect(lines).not.toContain("MIIEowIBAAKCAQEA");
  });

  it("leaves out only patterns whose matches never hold a quote or a backslash", () => {
    const left = SECRET_PATTERNS.filter((entry) => !LINE_PATTERNS.includes(entry));
    expect(left.length).toBeGreaterThan(10);
    for (const sample of SECRET_SAMPLES)
      for (const { rule, pattern } of left)
        for (const match of sample.matchAll(pattern)) expect(match[0], rule).not.toMatch(/["\\]/);
  });

  it("still finds a secret whose name and value are two strings of the line", () => {
    const line = redactedLine({ password: "correct-horse-battery" }, new SecretRedactor().redactText);
    expect(line).not.toContain("correct-horse-battery");
    const { now } = checkedLines(
      [{ config: { password: "correct-horse" } }],
      new SecretRedactor().forRecords,
    );
    expect(now.join("")).not.toContain("correct-horse");
    expect(redactWithPatterns('{"pwd":"hunter2hunter2"}', [], LINE_PATTERNS).text).toBe(
      '{"pwd":"[REDACTED]"}',
    );
  });
});
