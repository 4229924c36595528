import { describe, expect, it } from "vitest";
import { IGNORED, parseJsonPath, withoutPaths, type JsonPath } from "../../src/core/replay/json-path.js";

const paths = (...texts: string[]): JsonPath[] =>
  texts.map((text) => {
    const parsed = parseJsonPath(text);
    if (typeof parsed === "string") throw new Error(parsed);
    return parsed;
  });

const result = {
  content: [
    { type: "text", text: "a" },
    { type: "text", text: "b" },
  ],
  structuredContent: { id: 7, at: "2026-12-01", nested: { at: "x", keep: 1 }, "odd key": true },
};

describe("ignored JSON paths", () => {
  it.each([
    [
      ["$.structuredContent.id"],
      { ...result, structuredContent: { at: "2026-12-01", nested: { at: "x", keep: 1 }, "odd key": true } },
    ],
    [
      ["structuredContent.id"],
      { ...result, structuredContent: { at: "2026-12-01", nested: { at: "x", keep: 1 }, "odd key": true } },
    ],
    [["$.content[0].text"], { ...result, content: [{ type: "text" }, { type: "text", text: "b" }] }],
    [["$.content[*].text"], { ...result, content: [{ type: "text" }, { type: "text" }] }],
    [["$.content[1]"], { ...result, content: [{ type: "text", text: "a" }, IGNORED] }],
    [["$..at"], { ...result, structuredContent: { id: 7, nested: { keep: 1 }, "odd key": true } }],
    [
      ["$.structuredContent['odd key']"],
      { ...result, structuredContent: { id: 7, at: "2026-12-01", nested: { at: "x", keep: 1 } } },
    ],
    [["$.nothing.here"], result],
  ])("%j", (given, expected) => {
    expect(withoutPaths(result, paths(...given))).toEqual(expected);
  });

  it.each([
    ["$.a[", /"\$\.a\[" is not a JSON path this replay understands at "\["/],
    ["$", /names the whole result/],
    ["$.a b", /at " b"/],
  ])("%j is refused with one sentence", (text, message) => {
    expect(parseJsonPath(text)).toMatch(message);
  });
});
