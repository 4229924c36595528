import { describe, expect, it } from "vitest";
import { replayTyped } from "../../src/ui/keys/typed-keys.js";
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
