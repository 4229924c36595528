import { describe, expect, it } from "vitest";
import type { KeyEvent } from "../../src/ui/keys/key-event.js";
import { chordOf, keyAction, type EditName, type KeyAction, type KeyMode } from "../../src/ui/keys/keymap.js";

/** "ctrl+alt+w" → Ctrl+Alt+W; a bare name is a key without modifiers ("up", "return"). */
function key(chord: string): KeyEvent {
  const parts = chord.split("+");
  const name = parts.pop() ?? "";
  return {
    kind: "key",
    name,
    ctrl: parts.includes("ctrl"),
    meta: parts.includes("alt"),
    shift: parts.includes("shift"),
  };
}
const text = (value: string): KeyEvent => ({ kind: "text", text: value });
const paste = (value: string): KeyEvent => ({ kind: "paste", text: value });
const edit = (name: EditName): KeyAction => ({ type: "edit", edit: name });

describe("keymap: (mode, key) → action", () => {
  it.each<[KeyMode, KeyEvent, KeyAction]>([
    ["prompt", text("hello"), { type: "insert", text: "hello" }],
    ["prompt", text("y"), { type: "insert", text: "y" }],
    ["prompt", paste("a\nb"), { type: "paste", text: "a\nb" }],
    ["prompt", key("return"), { type: "send" }],
    ["prompt", key("alt+return"), { type: "newline" }],
    ["prompt", key("ctrl+j"), { type: "newline" }],
    ["prompt", key("tab"), { type: "complete" }],
    ["prompt", key("up"), { type: "vertical", direction: -1 }],
    ["prompt", key("down"), { type: "vertical", direction: 1 }],
    ["prompt", key("left"), edit("left")],
    ["prompt", key("right"), edit("right")],
    ["prompt", key("shift+left"), edit("left")],
    ["prompt", key("ctrl+b"), edit("left")],
    ["prompt", key("ctrl+f"), edit("right")],
    ["prompt", key("ctrl+left"), edit("wordLeft")],
    ["prompt", key("ctrl+right"), edit("wordRight")],
    ["prompt", key("alt+left"), edit("wordLeft")],
    ["prompt", key("alt+right"), edit("wordRight")],
    ["prompt", key("alt+b"), edit("wordLeft")],
    ["prompt", key("alt+f"), edit("wordRight")],
    ["prompt", key("home"), edit("lineStart")],
    ["prompt", key("end"), edit("lineEnd")],
    ["prompt", key("ctrl+a"), edit("lineStart")],
    ["prompt", key("ctrl+e"), edit("lineEnd")],
    ["prompt", key("backspace"), edit("backspace")],
    ["prompt", key("delete"), edit("deleteForward")],
    ["prompt", key("ctrl+w"), edit("deleteWordBack")],
    ["prompt", key("alt+backspace"), edit("deleteWordBackAlnum")],
    ["prompt", key("alt+d"), edit("deleteWordForward")],
    ["prompt", key("ctrl+u"), edit("deleteToLineStart")],
    ["prompt", key("ctrl+k"), edit("deleteToLineEnd")],
    ["prompt", key("ctrl+d"), { type: "delete_or_exit" }],
    ["prompt", key("ctrl+c"), { type: "interrupt" }],
    ["prompt", key("escape"), { type: "cancel_turn" }],
    ["prompt", key("ctrl+o"), { type: "inspector_toggle" }],
    ["prompt", key("pageup"), { type: "ignore" }],
    ["prompt", key("ctrl+space"), { type: "ignore" }],
    ["prompt", key("shift+tab"), { type: "complete" }],
    ["exit-armed", key("ctrl+c"), { type: "exit" }],
    ["exit-armed", text("x"), { type: "insert", text: "x" }],
    ["exit-armed", key("ctrl+d"), { type: "delete_or_exit" }],
    ["inspector", key("ctrl+d"), { type: "delete_or_exit" }],
    ["inspector", key("up"), { type: "inspector_move", delta: -1 }],
    ["inspector", key("down"), { type: "inspector_move", delta: 1 }],
    ["inspector", key("return"), { type: "inspector_print" }],
    ["inspector", key("escape"), { type: "inspector_close" }],
    ["inspector", key("ctrl+o"), { type: "inspector_toggle" }],
    ["inspector", text("x"), { type: "insert", text: "x" }],
    ["inspector", key("pageup"), { type: "inspector_scroll", by: "page-up" }],
    ["inspector", key("pagedown"), { type: "inspector_scroll", by: "page-down" }],
    ["inspector", text("j"), { type: "inspector_letter", text: "j" }],
    ["inspector", text("G"), { type: "inspector_letter", text: "G" }],
    ["inspector", text("f"), { type: "inspector_letter", text: "f" }],
    ["inspector", text("jk"), { type: "insert", text: "jk" }],
    ["prompt", text("j"), { type: "insert", text: "j" }],
    ["inspector", key("backspace"), edit("backspace")],
    ["approval", text("y"), { type: "approval_shortcut", choice: "once", text: "y" }],
    ["approval", text("a"), { type: "approval_shortcut", choice: "always", text: "a" }],
    ["approval", text("n"), { type: "approval_shortcut", choice: "deny", text: "n" }],
    ["approval", text("d"), { type: "approval_shortcut", choice: "reason", text: "d" }],
    ["approval", text("Y"), { type: "insert", text: "Y" }],
    ["approval", text("yes"), { type: "insert", text: "yes" }],
    ["approval", text("1"), { type: "approval_pick", index: 0, text: "1" }],
    ["approval", text("4"), { type: "approval_pick", index: 3, text: "4" }],
    ["approval", text("5"), { type: "approval_pick", index: 4, text: "5" }],
    ["approval", text("6"), { type: "insert", text: "6" }],
    ["approval", text("p"), { type: "approval_shortcut", choice: "project", text: "p" }],
    ["approval", text("x"), { type: "insert", text: "x" }],
    ["approval", paste("y"), { type: "paste", text: "y" }],
    ["approval", key("return"), { type: "approval_confirm" }],
    ["approval", key("up"), { type: "approval_focus", direction: -1 }],
    ["approval", key("down"), { type: "approval_focus", direction: 1 }],
    ["approval", key("escape"), { type: "approval_deny" }],
    ["approval", key("ctrl+c"), { type: "approval_deny" }],
    ["approval", key("ctrl+d"), edit("deleteForward")],
    ["approval", key("ctrl+o"), { type: "ignore" }],
    ["approval", key("backspace"), edit("backspace")],
    ["approval", key("ctrl+w"), edit("deleteWordBack")],
    ["approval", key("tab"), { type: "complete" }],
    ["approval", key("alt+return"), { type: "newline" }],
    ["approval-reason", text("y"), { type: "insert", text: "y" }],
    ["approval-reason", text("1"), { type: "insert", text: "1" }],
    ["approval-reason", paste("why"), { type: "paste", text: "why" }],
    ["approval-reason", key("return"), { type: "reason_send" }],
    ["approval-reason", key("escape"), { type: "approval_deny" }],
    ["approval-reason", key("ctrl+c"), { type: "approval_deny" }],
    ["approval-reason", key("backspace"), edit("backspace")],
    ["approval-reason", key("alt+b"), edit("wordLeft")],
    ["approval-reason", key("up"), { type: "ignore" }],
    ["approval-reason", key("tab"), { type: "ignore" }],
  ])("%s: %j", (mode, event, expected) => {
    expect(keyAction(mode, event)).toEqual(expected);
  });

  it.each([
    ["ctrl+w", "ctrl+w"],
    ["alt+backspace", "alt+backspace"],
    ["ctrl+alt+shift+x", "ctrl+alt+shift+x"],
    ["up", "up"],
  ])("chordOf %s", (chord, expected) => {
    const event = key(chord);
    if (event.kind !== "key") throw new Error("not a key");
    expect(chordOf(event)).toBe(expected);
  });
});
