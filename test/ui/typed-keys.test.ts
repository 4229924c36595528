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
    ["a draft", "hello there", "hello there", false],
    ["a line sent, then a draft", "y\rhello", "hello", true],
    ["a line sent, nothing after", "y\r", "", true],
    ["a draft of two lines", "one\u001b\rtwo", "one\u001b\rtwo", false],
    ["a pasted line break", "\u001b[200~one\ntwo\u001b[201~", "one\u001b\rtwo", false],
    ["erased with Ctrl+U", "typo\u0015fixed", "fixed", false],
  ])("%s", (_name, keys, giveBack, ignoredSome) => {
    expect(draftAside(keys)).toEqual({ giveBack, ignoredSome });
  });
});
