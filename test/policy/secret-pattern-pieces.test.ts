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

  it("pass over the progress token every request of mcpterm's carries, but for the assignment's word", () => {
    const request = '{"params":{"_meta":{"progressToken":1},"authority":"x"}}';
    expect(SECRET_PATTERNS.filter(({ piece }) => piece.test(request)).map(({ rule }) => rule)).toEqual([
      "secret-assignment",
    ]);
  });
});
