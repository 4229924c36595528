import { describe, expect, it } from "vitest";
import { previewAsText, previewPart } from "../../src/core/trace/preview-part.js";

describe("previewPart", () => {
  it("reaches as far as it says, each value charged no more than its JSON", () => {
    const values: unknown[] = [
      Array.from({ length: 30_000 }, (_, id) => ({ id, ok: true, n: null, gone: undefined })),
      Array.from({ length: 30_000 }, () => [[], {}, 0, false]),
      { text: '\u0000\n"\\'.repeat(10_000) },
      { ["\u0001".repeat(50)]: "x".repeat(20_000) },
    ];
    for (const value of values) {
      const kept = JSON.stringify(previewPart(value, 1000));
      expect(kept.length).toBeGreaterThanOrEqual(1000 + 8192);
      expect(kept.length).toBeLessThan(JSON.stringify(value).length);
    }
  });

  it("stops at its budget however small the values, and says where", () => {
    const part = previewPart(
      Array.from({ length: 1_000_000 }, () => []),
      100,
    ) as unknown[];
    expect(part.length).toBeLessThan(10_000);
    expect(JSON.stringify(part.at(-1))).toContain("the value goes on");
  });

  it("gives back a value it can reach whole as it is, and a preview of it is its JSON", () => {
    const value = { a: [1, "two", { three: null }], b: "\u00e9\ud83d\ude00" };
    expect(previewPart(value, 1000)).toEqual(value);
    const line = JSON.stringify({ type: "raw_result", preview: previewPart(value, 1000), chars: 40 });
    expect(JSON.parse(previewAsText(line, 1000))).toEqual({
      type: "raw_result",
      preview: JSON.stringify(value),
      chars: 40,
    });
  });

  it("ends a preview before a character, never between the halves of one", () => {
    const value = `${"x".repeat(9)}\ud83d\ude00`;
    const line = JSON.stringify({ preview: value });
    // The JSON is a quote and nine x's, then the pair: cut at 11, the pair would be halved.
    expect(JSON.parse(previewAsText(line, 11))).toEqual({ preview: `"${"x".repeat(9)}` });
  });
});
