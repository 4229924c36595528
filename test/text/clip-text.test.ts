import { describe, expect, it } from "vitest";
import { clipText } from "../../src/core/text/index.js";

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("clipText: a size cap that never cuts inside a character", () => {
  it.each<[string, string, number, string]>([
    ["text that fits stays whole", "hello", 10, "hello"],
    ["plain text is cut at the limit", "hello world", 5, "hello"],
    ["an emoji is not split into a lone surrogate", "xx😀yy", 3, "xx"],
    ["a family emoji goes whole or not at all", "a👨‍👩‍👧b", 5, "a"],
    ["a letter keeps its combining mark", "ae\u0301z", 2, "a"],
    ["a flag stays whole", "🇫🇷🇩🇪", 5, "🇫🇷"],
  ])("%s", (_case, text, limit, expected) => {
    expect(clipText(text, limit)).toBe(expected);
  });

  it("cuts long text near the limit without leaving half a character", () => {
    for (let offset = 0; offset < 4; offset++) {
      const text = `${"x".repeat(150 + offset)}${"😀".repeat(100)}`;
      const clipped = clipText(text, 200);
      expect(clipped.length).toBeLessThanOrEqual(200);
      expect(clipped.length).toBeGreaterThanOrEqual(199);
      expect(clipped).not.toMatch(LONE_SURROGATE);
    }
  });
});
