import type { ReadStream } from "node:tty";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { PASTE_END, PASTE_START } from "../../src/ui/terminal/open-paste.js";
import { withoutTerminalReplies } from "../../src/ui/terminal/terminal-input.js";

const ESC = "\u001b";
const CTRL_C = "\u0003";

/** A stream Ink would read, each of `reads` arriving alone, and what onPasteOwed was told meanwhile. */
function told(reads: readonly string[]): boolean[] {
  const stream = new PassThrough({ encoding: "utf8" });
  const owed: boolean[] = [];
  const input = withoutTerminalReplies(stream as unknown as ReadStream, (state) => owed.push(state));
  for (const read of reads) {
    stream.write(read);
    while (input.read() !== null) {
      // Ink reads until nothing is left.
    }
  }
  return owed;
}

describe("withoutTerminalReplies", () => {
  it("tells when a paste's end becomes owed and when that is over, by Esc or by the end itself", () => {
    expect(told([`${PASTE_START}half`, CTRL_C, "more", ESC, "typed"])).toEqual([true, false]);
    expect(told([`${PASTE_START}half`, CTRL_C, `rest${PASTE_END}`, "typed"])).toEqual([true, false]);
  });

  it("tells nothing of pastes that end", () => {
    expect(told([`${PASTE_START}whole${PASTE_END}`, "typed\r"])).toEqual([]);
  });
});
