import { describe, expect, it } from "vitest";
import { displayWidth, firstLine, oneLine, summarizeArguments } from "../../src/core/text/index.js";

describe("oneLine", () => {
  it.each([
    ["a\n  b\tc ", 80, "a b c"],
    ["  ", 80, ""],
    ["hello world", 8, "hello w…"],
    ["中文 中文 中文", 9, "中文 中…"],
    ["部署\n回滚", 20, "部署 回滚"],
  ])("%j in %d columns is %j", (text, width, expected) => {
    expect(oneLine(text, width)).toBe(expected);
  });
});

describe("firstLine", () => {
  it.each([
    ["one\ntwo", undefined, "one"],
    ["\n\n  error: boom  \nmore", undefined, "error: boom"],
    ["a\r\nb", undefined, "a"],
    ["", undefined, ""],
    [" \n\t\n", 10, ""],
    ["x".repeat(300), 200, `${"x".repeat(199)}…`],
    ["错误：文件不存在\n详情", 9, "错误：文…"],
  ])("%j (max %s) is %j", (text, width, expected) => {
    expect(firstLine(text, width)).toBe(expected);
  });
});

describe("summarizeArguments", () => {
  it.each([
    [{ path: "a\nb", n: 2 }, "", 80, '{"path":"a\\nb","n":2}'],
    [undefined, '{"path": "a.md",\n  "text": "hel', 80, '{"path": "a.md", "text": "hel'],
    [{ text: "x".repeat(100) }, "", 20, `{"text":"${"x".repeat(10)}…`],
    [{}, "", 80, "{}"],
  ])("%j / %j in %d columns is %j", (args, raw, width, expected) => {
    expect(summarizeArguments(args, raw, width)).toBe(expected);
  });

  it("fits CJK arguments by display width", () => {
    const summary = summarizeArguments({ text: "日本語".repeat(20) }, "", 21);
    expect(displayWidth(summary)).toBeLessThanOrEqual(21);
    expect(summary).toBe('{"text":"日本語日本…');
  });
});
