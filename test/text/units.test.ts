import { describe, expect, it } from "vitest";
import { countLines, formatBytes, formatDuration, pluralize } from "../../src/core/text/index.js";

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1.0 KB"],
    [1536, "1.5 KB"],
    [1024 * 1024 - 52, "1023.9 KB"],
    [1024 * 1024 - 51, "1.0 MB"], // 1023.95 KB would print as 1024.0 KB
    [1024 * 1024 - 1, "1.0 MB"],
    [1024 * 1024, "1.0 MB"],
    [3.25 * 1024 * 1024, "3.3 MB"],
    [5 * 1024 ** 3, "5.0 GB"],
    [2 * 1024 ** 5, "2048.0 TB"],
  ])("%d bytes is %s", (bytes, expected) => {
    expect(formatBytes(bytes)).toBe(expected);
  });
});

describe("formatDuration", () => {
  it.each([
    [undefined, "?"],
    [0, "0 ms"],
    [34, "34 ms"],
    [999.4, "999 ms"],
    [999.6, "1.0 s"],
    [1000, "1.0 s"],
    [1240, "1.2 s"],
    [59_940, "59.9 s"],
    [59_960, "1 min 0 s"],
    [60_000, "1 min 0 s"],
    [125_000, "2 min 5 s"],
    [3_599_400, "59 min 59 s"],
    [3_599_600, "1 h 0 min"],
    [3_780_000, "1 h 3 min"],
  ])("%s ms is %s", (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });
});

describe("countLines", () => {
  it.each([
    ["", 0],
    ["one", 1],
    ["one\n", 1], // a file's final line break ends its last line
    ["a\nb\nc\n", 3],
    ["a\nb\nc", 3],
    ["\n", 1],
    ["a\n\n", 2],
  ])("%j has %i lines", (text, lines) => {
    expect(countLines(text)).toBe(lines);
  });
});

describe("pluralize", () => {
  it.each([
    [0, "0 lines"],
    [1, "1 line"],
    [2, "2 lines"],
  ])("%i line(s) reads %s", (count, expected) => {
    expect(pluralize(count, "line")).toBe(expected);
  });
});
