import { describe, expect, it } from "vitest";
import {
  displayWidth,
  padToWidth,
  terminalStringWidth,
  truncateEnd,
  truncateMiddle,
  wrapWords,
} from "../../src/core/text/index.js";

const FAMILY = "👨‍👩‍👧‍👦";
const clustersOf = (text: string): string[] =>
  Array.from(new Intl.Segmenter().segment(text), (part) => part.segment);

describe("displayWidth", () => {
  it.each([
    ["", 0],
    ["abc", 3],
    ["hello, world", 12],
    ["中文", 4],
    ["日本語のテキスト", 16],
    ["한국어", 6],
    ["a中b", 4],
    ["👍", 2],
    // Joined emoji count at the widest a terminal draws them: each part (tmux, xterm), not one glyph.
    ["👍🏽", 4], // skin tone modifier joins its emoji
    [FAMILY, 8], // ZWJ sequence of four people
    ["🏳️‍🌈", 3], // a one-column flag, a joiner and a rainbow
    ["🇯🇵", 2], // regional-indicator pair
    ["🇯🇵🇫🇷", 4],
    ["❤️", 2], // text-default symbol with VS16
    ["1️⃣", 2], // keycap
    ["e\u0301", 1], // combining acute accent
    ["a\u0308\u0323", 1], // two stacked marks
    ["Ｆｕｌｌ", 8], // fullwidth forms
    ["ｱｲｳ", 3], // halfwidth katakana
    ["…", 1],
    ["©", 1],
    ["\u0007\u0000\u001b", 0], // control characters
    ["a\u200bb", 2], // zero-width space
    ["\u00ad", 0], // soft hyphen
  ])("%j is %i columns", (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it("measures 100 KB of mixed text", () => {
    const text = "Hello, 世界! テキスト 👨‍👩‍👧 🇯🇵 👍🏽 café ".repeat(2600);
    expect(text.length).toBeGreaterThan(100_000);
    expect(displayWidth(text)).toBe(displayWidth("Hello, 世界! テキスト 👨‍👩‍👧 🇯🇵 👍🏽 café ") * 2600);
  });
});

describe("terminalStringWidth (what Ink measures with in the build)", () => {
  it.each([
    ["plain", 5],
    ["中文", 4],
    ["\u001b[31m👍🏽\u001b[39m ok", 7], // styled text: escape sequences take no columns
    [`${FAMILY} x`, 10],
    ["👍🏽👍", 6],
  ])("%j is %i columns", (text, width) => {
    expect(terminalStringWidth(text)).toBe(width);
  });

  it("is never narrower than a terminal draws an emoji: as one glyph, or part by part", () => {
    for (const emoji of ["👍🏽", "👨‍👩‍👧", FAMILY, "🧑🏿‍🚀", "🏳️‍🌈", "❤️", "🇯🇵", "1️⃣"]) {
      // Code point by code point, on purpose: that is how tmux and xterm draw them.
      const onePerPart = Array.from(emoji).reduce((sum, point) => sum + terminalStringWidth(point), 0);
      expect(terminalStringWidth(emoji)).toBeGreaterThanOrEqual(Math.max(2, onePerPart));
      expect(terminalStringWidth(emoji)).toBe(displayWidth(emoji));
    }
  });
});

describe("truncateEnd", () => {
  it.each([
    ["hello world", 5, "hell…"],
    ["hello", 5, "hello"],
    ["hello", 9, "hello"],
    ["hello", 1, "…"],
    ["hello", 0, ""],
    ["hello", -3, ""],
    ["hello world", 5.9, "hell…"],
    ["中文字符", 8, "中文字符"],
    ["中文字符", 7, "中文字…"],
    ["中文字符", 5, "中文…"],
    ["中文字符", 4, "中…"],
    ["中文字符", 2, "…"],
    ["a中文", 3, "a…"],
    [`${FAMILY}${FAMILY}`, 9, `${FAMILY}…`],
    [`${FAMILY}${FAMILY}`, 8, "…"],
    ["🇯🇵🇫🇷🇩🇪", 5, "🇯🇵🇫🇷…"],
    ["e\u0301e\u0301e\u0301", 2, "e\u0301…"],
    ["👍🏽👍🏽", 5, "👍🏽…"],
  ])("%j in %d columns is %j", (text, width, expected) => {
    expect(truncateEnd(text, width)).toBe(expected);
  });

  it("never exceeds the width and never splits a cluster, at any width", () => {
    const text = `ab中${FAMILY}e\u0301🇯🇵c👍🏽文Ｆ\u0301d`;
    const whole = clustersOf(text);
    for (let width = 0; width <= displayWidth(text) + 1; width += 1) {
      const cut = truncateEnd(text, width);
      expect(displayWidth(cut)).toBeLessThanOrEqual(width);
      const kept = clustersOf(cut.endsWith("…") ? cut.slice(0, -1) : cut);
      expect(kept).toEqual(whole.slice(0, kept.length));
    }
  });
});

describe("truncateMiddle", () => {
  it.each([
    ["abcdefghij", 5, "ab…ij"],
    ["abcdefghij", 6, "abc…ij"],
    ["abcdefghij", 10, "abcdefghij"],
    ["abcdefghij", 1, "…"],
    ["abcdefghij", 0, ""],
    ["server-with-a-long-name/tool_name", 20, "server-wit…tool_name"],
    ["中文中文中文", 7, "中…中文"],
    ["中文中文中文", 8, "中文…文"],
    ["中文中文中文", 12, "中文中文中文"],
    [`${FAMILY}abc${FAMILY}`, 17, `${FAMILY}…${FAMILY}`],
    ["🇯🇵x🇫🇷y🇩🇪", 5, "🇯🇵…🇩🇪"],
  ])("%j in %d columns is %j", (text, width, expected) => {
    expect(truncateMiddle(text, width)).toBe(expected);
  });

  it("never exceeds the width and keeps whole clusters at both ends, at any width", () => {
    const text = `知识库/${FAMILY}/e\u0301🇯🇵/部署.md:12-30`;
    const whole = clustersOf(text);
    for (let width = 0; width <= displayWidth(text) + 1; width += 1) {
      const cut = truncateMiddle(text, width);
      expect(displayWidth(cut)).toBeLessThanOrEqual(width);
      const [head = "", tail = ""] = cut.split("…");
      const headClusters = clustersOf(head);
      const tailClusters = clustersOf(tail);
      expect(headClusters).toEqual(whole.slice(0, headClusters.length));
      expect(tailClusters).toEqual(tailClusters.length === 0 ? [] : whole.slice(-tailClusters.length));
    }
  });
});

describe("wrapWords", () => {
  it.each([
    ["", 4, 4, [""]],
    ["word word word word", 10, 8, ["word word", "word", "word"]],
    // A word wider than the row is cut; later rows are as wide as asked.
    ["abcdefghijklmnop", 5, 3, ["abcde", "fgh", "ijk", "lmn", "op"]],
    ["a verylongwordhere b", 8, 6, ["a", "verylo", "ngword", "here b"]],
    // A space at the edge ends the row and does not start the next.
    ["hello world foo", 11, 9, ["hello world", "foo"]],
    ["日本語 のテキスト", 5, 5, ["日本", "語", "のテ", "キス", "ト"]],
    ["ab😀cd", 3, 3, ["ab", "😀c", "d"]],
    ["👨‍👩‍👧‍👦x", 8, 8, ["👨‍👩‍👧‍👦", "x"]],
  ])("%j at %i then %i columns", (line, width, next, rows) => {
    expect(wrapWords(line, width, next)).toEqual(rows);
    for (const [index, row] of rows.entries())
      expect(displayWidth(row)).toBeLessThanOrEqual(index === 0 ? width : next);
  });
});

describe("padToWidth", () => {
  it.each([
    ["ab", 4, "ab  "],
    ["中", 4, "中  "],
    [FAMILY, 9, `${FAMILY} `],
    ["abcdef", 3, "abcdef"],
  ])("%j to %d columns is %j", (text, width, expected) => {
    expect(padToWidth(text, width)).toBe(expected);
  });
});
