import { describe, expect, it } from "vitest";
import { redactWithPatterns, SECRET_PATTERNS } from "../../src/core/policy/secret-patterns.js";

const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const run = (length: number, alphabet = ALNUM, offset = 0): string =>
  Array.from({ length }, (_, index) => alphabet[(index * 7 + offset) % alphabet.length]).join("");

/** Texts each of mcpterm's own patterns finds something in. */
const SAMPLES = [
  `-----BEGIN RSA PRIVATE KEY-----\nMII${run(40)}\n-----END RSA PRIVATE KEY-----`,
  `-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE`,
  `sk-ant-api03-${run(30)}`,
  `key sk-proj-${run(36)} end`,
  `sk-${run(24)}`,
  "AKIAIOSFODNN7EXAMPLQ ASIA0123456789ABCDEF",
  `ghp_${run(36)} github_pat_${run(40)}`,
  `xoxb-${run(20)}`,
  `AIza${run(35)}`,
  `npm_${run(36)}`,
  `glpat-${run(20)}`,
  `hf_${run(30)}`,
  `sk_live_${run(24)} rk_test_${run(30)}`,
  `SG.${run(22, `${ALNUM}-_`)}.${run(43)}`,
  `shpat_${run(32, "0123456789abcdef")}`,
  `eyJ${run(12)}.eyJ${run(12)}.${run(12)}`,
  "Authorization: Bearer abcdefghijklmnop1234567890",
  "bearer\tabcdefghijklmnop1234567890==",
  "https://user:hunter2@example.com/x postgres://app:s3cret-pw@db/app",
  "machine api.example.com login ann password hunter2hunter2",
  "machine example.com\n  login ann\n  password s3cr3t-pw",
  '{"auths":{"ghcr.io":{"auth":"YW5uOnMzY3IzdC1wYXNzd29yZA=="}}}',
  '{"IdentityToken" : "YW5uOnMzY3IzdC1wYXNzd29yZA=="}',
  '{"password": "correct horse battery"}',
  "API_KEY=abcdefgh12345678 client-secret: 'hush hush hush' PWD = s3cr3t-pw-123",
  'Access_Token:zzzzzzzzzzzz auth-token = "a b c d e f" passwd="hunter22"',
  `{"AWS_SECRET_ACCESS_KEY": "${run(40)}"} secretAccessKey=${run(40, ALNUM, 3)}`,
  `SECRET_KEY = 'django-insecure-${run(20)}' secret_key_base: ${run(64, "0123456789abcdef")}`,
];

/** Variants a step away from `text`: each character dropped, doubled or case-flipped. */
function nearMisses(text: string): string[] {
  const variants: string[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const before = text.slice(0, index);
    const after = text.slice(index + 1);
    const character = text[index] ?? "";
    const flipped = character === character.toLowerCase() ? character.toUpperCase() : character.toLowerCase();
    variants.push(before + after, before + character + character + after, before + flipped + after);
  }
  return variants;
}

const corpus = [...SAMPLES, ...SAMPLES.flatMap(nearMisses), SAMPLES.join("\n"), SAMPLES.join(" ")];

describe("the pieces of mcpterm's own secret patterns", () => {
  it("are plain tests: no flag that keeps state between calls", () => {
    for (const { rule, piece } of SECRET_PATTERNS) expect(piece.global || piece.sticky, rule).toBe(false);
  });

  it.each(SECRET_PATTERNS.map((entry, index) => [`${index}: ${entry.rule}`, entry] as const))(
    "%s: every match holds its piece",
    (_, { pattern, piece }) => {
      let matches = 0;
      for (const text of corpus) {
        for (const match of text.matchAll(pattern)) {
          matches += 1;
          expect(piece.test(match[0]), match[0]).toBe(true);
        }
      }
      // Checked on real matches, not on none.
      expect(matches).toBeGreaterThan(0);
    },
  );

  it("redacts the samples as the patterns alone do", () => {
    const unpieced = (text: string): string => {
      let result = text;
      for (const { pattern, group } of SECRET_PATTERNS)
        result = result.replace(pattern, (match, ...captures: unknown[]) => {
          const secret =
            group === 0 ? match : captures.slice(0, -2).find((capture) => typeof capture === "string");
          if (typeof secret !== "string" || secret.includes("[REDACTED]")) return match;
          return match.replace(secret, "[REDACTED]");
        });
      return result;
    };
    for (const text of corpus) expect(redactWithPatterns(text).text, text).toBe(unpieced(text));
  });

  it("leave ordinary text alone without a replace", () => {
    const plain =
      'The filesystem server listed 3 files: {"name":"a.md","size":12}, see https://example.com/x.';
    expect(SECRET_PATTERNS.filter(({ piece }) => piece.test(plain))).toEqual([]);
    expect(redactWithPatterns(plain)).toEqual({ text: plain, rules: [] });
  });

  it("pass over the progress token every request of mcpterm's carries, but for the assignment's word", () => {
    const request = '{"params":{"_meta":{"progressToken":1},"authority":"x"}}';
    expect(SECRET_PATTERNS.filter(({ piece }) => piece.test(request)).map(({ rule }) => rule)).toEqual([
      "secret-assignment",
    ]);
  });
});
