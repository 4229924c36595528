import { describe, expect, it } from "vitest";
import { draftAside, replayTyped } from "../../src/ui/keys/typed-keys.js";
import { COMPLETING_CASES, RAW_KEY_CASES } from "../support/raw-key-cases.js";

/**
 * The early frame replays keys typed before Ink loaded (to show the draft, and to print it if
 * mcpterm stops first): for the same bytes it must leave what the App's prompt leaves.
 */
describe("keys typed before Ink loaded, replayed as the prompt takes them", () => {
  it.each(RAW_KEY_CASES.filter(([name]) => !COMPLETING_CASES.has(name)))("%s", (_name, chunks, expected) => {
    const { sent, draft } = replayTyped(chunks.join(""));
    expect(sent).toEqual([]);
    // The App's test reads the prompt as drawn, without trailing spaces.
    expect(draft.text.trimEnd()).toBe(expected);
  });

  it("sends each line Enter ends, as the prompt does", () => {
    expect(replayTyped("abc\r\u001b[200~one\ntwo\u001b[201~\rdraft").sent).toEqual(["abc", "one\ntwo"]);
  });
});

describe("keys typed into the prompt before a question asked ahead of the TUI", () => {
  it.each<[string, string, string, boolean]>([
    ["a draft, as typed", "hello there", "hello there", false],
    ["a draft with the cursor moved, as typed", "abd\u001b[Dc", "abd\u001b[Dc", false],
    ["a paste holding a tab, as pasted", "\u001b[200~a\tb\u001b[201~", "\u001b[200~a\tb\u001b[201~", false],
    ["a draft of two lines, as typed", "one\u001b\rtwo", "one\u001b\rtwo", false],
    ["a line sent, then a draft: the draft as a paste", "y\rhello", "\u001b[200~hello\u001b[201~", true],
    ["a line sent, nothing after", "y\r", "", true],
    ["a line sent with the keypad's Enter (SS3 M)", "y\u001bOMnext", "\u001b[200~next\u001b[201~", true],
    ["a line sent, then text erased with Ctrl+U", "y\rtypo\u0015fixed", "\u001b[200~fixed\u001b[201~", true],
  ])("%s", (_name, keys, giveBack, ignoredSome) => {
    expect(draftAside(keys)).toEqual({ giveBack, ignoredSome });
  });
});
