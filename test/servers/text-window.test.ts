import { describe, expect, it } from "vitest";
import { textWindow, truncationNote } from "../../src/servers/fetch/text-window.js";

describe("textWindow", () => {
  it.each([
    ["all of a short text", "hello", 0, 10, { text: "hello", total: 5, nextStart: undefined }],
    ["the head of a long text", "hello world", 0, 5, { text: "hello", total: 11, nextStart: 5 }],
    ["a middle slice", "hello world", 6, 3, { text: "wor", total: 11, nextStart: 9 }],
    ["the tail", "hello world", 6, 100, { text: "world", total: 11, nextStart: undefined }],
    ["past the end", "hi", 5, 10, { text: "", total: 2, nextStart: undefined }],
    ["code points, not UTF-16 units", "a😀b中c", 1, 3, { text: "😀b中", total: 5, nextStart: 4 }],
  ])("%s", (_name, text, start, max, expected) => {
    expect(textWindow(text, start, max)).toEqual(expected);
  });

  it("writes the note the model reads to continue", () => {
    expect(truncationNote(0, textWindow("x".repeat(53_211), 0, 20_000))).toBe(
      "[content truncated: showing 0-20000 of 53211 characters; call again with start_index=20000]",
    );
  });
});
