import { describe, expect, it } from "vitest";
import { complete } from "../../src/ui/keys/completion.js";
import { serverProgress } from "../../src/ui/app/status-parts.js";
import {
  backspace,
  deleteWordBack,
  insertText,
  moveLine,
  pressEnter,
  type EditorState,
} from "../../src/ui/keys/input-editor.js";
import { browse, emptyHistory, remember } from "../../src/ui/keys/input-history.js";

const at = (text: string, cursor = text.length): EditorState => ({ text, cursor });
const WORDS = ["/help", "/tools", "/trace", "fixture", "fixture/echo", "echo"];

describe("prompt editing", () => {
  it.each([
    ["Enter sends", at("hello"), { submit: "hello" }],
    ["a trailing backslash continues on a new line", at("one\\"), { submit: undefined, text: "one\n" }],
  ])("%s", (_name, state, expected) => {
    const entered = pressEnter(state);
    expect(entered.submit).toBe(expected.submit);
    if ("text" in expected) expect(entered.state.text).toBe(expected.text);
  });

  it.each([
    ["inserts at the cursor", insertText(at("ac", 1), "b"), at("abc", 2)],
    ["pasted CRLF becomes LF", insertText(at(""), "a\r\nb"), at("a\nb")],
    ["backspace at the start does nothing", backspace(at("ab", 0)), at("ab", 0)],
    ["Ctrl+W deletes a word", deleteWordBack(at("run the tool")), at("run the ")],
    ["Up moves between lines", moveLine(at("abc\nde", 5), -1), at("abc\nde", 1)],
    ["Down keeps the column where it can", moveLine(at("abcdef\nde", 5), 1), at("abcdef\nde", 9)],
  ])("%s", (_name, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  it.each([
    ["one command", at("/to"), "/tools ", []],
    ["several commands to their common prefix", at("/t"), "/t", ["/tools", "/trace"]],
    ["a server after a command", at("/tools fix"), "/tools fixture", ["fixture", "fixture/echo"]],
    ["no slash commands in the middle", at("/tools /h"), "/tools /h", []],
    ["nothing to complete", at("zzz"), "zzz", []],
  ])("Tab completes %s", (_name, state, text, candidates) => {
    const result = complete(state, WORDS);
    expect(result.state.text).toBe(text);
    expect(result.candidates).toEqual(candidates);
  });

  it("Up/Down walk the history and come back to the draft", () => {
    let history = remember(remember(emptyHistory, "one"), "two");
    const up = browse(history, -1, "draft");
    expect(up?.text).toBe("two");
    history = up?.history ?? history;
    const upAgain = browse(history, -1, "two");
    expect(upAgain?.text).toBe("one");
    history = upAgain?.history ?? history;
    expect(browse(history, -1, "one")).toBeUndefined();
    const down = browse(history, 1, "one");
    expect(down?.text).toBe("two");
    expect(browse(down?.history ?? history, 1, "two")?.text).toBe("draft");
  });
});

describe("status and summaries", () => {
  it.each([
    [[], "no servers"],
    [
      [
        { name: "a", status: "connected" as const, error: undefined },
        { name: "b", status: "connected" as const, error: undefined },
        { name: "c", status: "failed" as const, error: "boom" },
      ],
      "2/3 servers ready · 1 failed",
    ],
    [
      [
        { name: "a", status: "connected" as const, error: undefined },
        { name: "b", status: "connecting" as const, error: undefined },
      ],
      "1/2 servers ready · 1 starting",
    ],
  ])("serverProgress %#", (servers, expected) => {
    expect(serverProgress(servers)).toBe(expected);
  });
});
