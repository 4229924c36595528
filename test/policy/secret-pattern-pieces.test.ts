import { describe, expect, it } from "vitest";
import { redactWithPatterns, SECRET_PATTERNS } from "../../src/core/policy/secret-patterns.js";
import { SECRET_SAMPLES as SAMPLES } from "../support/secret-samples.js";

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

  it("pass over the progress token every request of mcpterm's carries, and other camelCase counts and cursors", () => {
    const request = '{"params":{"_meta":{"progressToken":1},"authority":"x"}}';
    expect(SECRET_PATTERNS.filter(({ piece }) => piece.test(request))).toEqual([]);
    for (const text of ['"nextPageToken": "abcdefgh12"', '"maxTokens": 100000', "sortKey=createdAt1"])
      expect(assignment.piece.test(text), text).toBe(false);
  });

  it("let through every name a secret assignment goes by, as the pattern reads it", () => {
    let matched = 0;
    for (const name of secretNames())
      for (const text of [
        `"${name}": "hunter2hunter2"`,
        `${name} = hunter2hunter2`,
        `'${name}':'hunter2hunter2'`,
      ])
        if (new RegExp(assignment.pattern.source, assignment.pattern.flags).test(text)) {
          matched += 1;
          expect(assignment.piece.test(text), text).toBe(true);
        }
    // Every shape below, in every case and after every prefix, is one the pattern takes.
    expect(matched).toBeGreaterThan(1000);
  });
});

const assignment = secretAssignment();

function secretAssignment(): (typeof SECRET_PATTERNS)[number] {
  const found = SECRET_PATTERNS.find(({ rule }) => rule === "secret-assignment");
  if (!found) throw new Error("no secret-assignment pattern");
  return found;
}

const capitalized = (word: string): string => word.slice(0, 1).toUpperCase() + word.slice(1);

/**
 * The names of SECRET_NAMES and SECRET_NAME_ENDINGS written out: each separator a name may have
 * (none, `_`, `-`), after the snake_case words that may come first, in lower case, upper case
 * and camelCase (`apiKey`, `AccessToken`, `secretKeyBase`).
 */
function secretNames(): string[] {
  const shapes = [
    "api key",
    "apikey",
    "secret",
    "client secret",
    "secret access key",
    "aws secret access key",
    "secret key",
    "secret key base",
    "access token",
    "auth token",
    "refresh token",
    "token",
    "password",
    "passwd",
    "pwd",
  ];
  const names: string[] = [];
  for (const shape of shapes) {
    const words = shape.split(" ");
    const camel = words.map((word, index) => (index === 0 ? word : capitalized(word)));
    for (const separator of ["", "_", "-"]) {
      const joined = words.join(separator);
      for (const prefix of ["", "db_", "my_service_", "X1_"])
        names.push(prefix + joined, (prefix + joined).toUpperCase(), prefix + camel.join(separator));
    }
    names.push(words.map(capitalized).join(""));
  }
  return names;
}
