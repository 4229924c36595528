import type { Key as InkKey } from "ink";
import { describe, expect, it } from "vitest";
import { keysFromInk, splitTyped, type KeyEvent } from "../../src/ui/keys/key-event.js";

const key = (name: string, ctrl = false): KeyEvent => ({
  kind: "key",
  name,
  ctrl,
  meta: false,
  shift: false,
});
const text = (value: string): KeyEvent => ({ kind: "text", text: value });

describe("splitTyped: the keys in a run of bytes Ink hands over as one input", () => {
  it.each<[string, string, KeyEvent[]]>([
    ["plain text stays one event", "hello", [text("hello")]],
    ["Tab between letters", "ab\tc", [text("ab"), key("tab"), text("c")]],
    ["a line and Enter", "abc\r", [text("abc"), key("return")]],
    ["Ctrl+W after letters", "ab\u0017", [text("ab"), key("w", true)]],
    [
      "Ctrl+U, Ctrl+K, Ctrl+A, Ctrl+E",
      "\u0015\u000b\u0001\u0005",
      [key("u", true), key("k", true), key("a", true), key("e", true)],
    ],
    ["DEL is Backspace", "a\u007f\u007f", [text("a"), key("backspace"), key("backspace")]],
    ["BS (Ctrl+H) is Backspace", "a\u0008", [text("a"), key("backspace")]],
    ["LF is Ctrl+J", "a\nb", [text("a"), key("j", true), text("b")]],
    ["NUL is Ctrl+Space", "\u0000", [key("space", true)]],
    ["emoji and CJK stay text", "写👍🏽", [text("写👍🏽")]],
  ])("%s", (_name, input, expected) => {
    expect(splitTyped(input)).toEqual(expected);
  });
});

const NO_FLAGS: InkKey = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

describe("keysFromInk", () => {
  it.each<[string, string, Partial<InkKey>, KeyEvent[]]>([
    ["Backspace", "", { backspace: true }, [key("backspace")]],
    [
      "Alt+Backspace",
      "",
      { backspace: true, meta: true },
      [{ kind: "key", name: "backspace", ctrl: false, meta: true, shift: false }],
    ],
    [
      "Ctrl+→",
      "",
      { rightArrow: true, ctrl: true },
      [{ kind: "key", name: "right", ctrl: true, meta: false, shift: false }],
    ],
    ["Ctrl+W", "w", { ctrl: true }, [key("w", true)]],
    ["Alt+B", "b", { meta: true }, [{ kind: "key", name: "b", ctrl: false, meta: true, shift: false }]],
    ["a Ctrl key Ink could not name is dropped", "", { ctrl: true }, []],
    ["typed text with a Tab in it", "ab\tc", {}, [text("ab"), key("tab"), text("c")]],
  ])("%s", (_name, input, flags, expected) => {
    expect(keysFromInk(input, { ...NO_FLAGS, ...flags })).toEqual(expected);
  });
});
