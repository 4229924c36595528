import { describe, expect, it } from "vitest";
import { OpenPaste, PASTE_END, PASTE_START } from "../../src/ui/terminal/open-paste.js";

const CTRL_C = "\u0003";
const CTRL_D = "\u0004";

/** The reads as Ink is given them, `null` standing for a silence (OpenPaste.quiet). */
function given(...reads: Array<string | null>): string[] {
  const paste = new OpenPaste();
  return reads.map((read) => (read === null ? paste.quiet() : paste.see(read)));
}

describe("OpenPaste", () => {
  it("leaves whole pastes and typing alone, and a silence then gives nothing", () => {
    const paste = new OpenPaste();
    const keys = `a${PASTE_START}one\r${PASTE_END}${PASTE_START}two${PASTE_END}\r`;
    expect(paste.see(keys)).toBe(keys);
    expect(paste.waiting).toBe(false);
    expect(paste.quiet()).toBe("");
    expect(paste.see(`${PASTE_END}typed`)).toBe(`${PASTE_END}typed`);
  });

  it("waits on a paste left open by a read, cut markers too, until its end", () => {
    const paste = new OpenPaste();
    paste.see("x\u001b[20");
    paste.see("0~pasted");
    expect(paste.waiting).toBe(true);
    paste.see("more\r");
    expect(paste.waiting).toBe(true);
    paste.see("end\u001b[2");
    paste.see("01~");
    expect(paste.waiting).toBe(false);
  });

  it("ends a paste after a silence, and then a silence gives nothing more", () => {
    const paste = new OpenPaste();
    expect(paste.see(`${PASTE_START}cut off`)).toBe(`${PASTE_START}cut off`);
    expect(paste.waiting).toBe(true);
    expect(paste.quiet()).toBe(PASTE_END);
    expect(paste.waiting).toBe(false);
    expect(paste.quiet()).toBe("");
  });

  it("gives the rest of a stalled paste, in any number of reads, as pasted text: no line break types Enter", () => {
    expect(given(`${PASTE_START}first`, null, "second\rthird", "fourth\r", `fifth${PASTE_END}after`)).toEqual(
      [
        `${PASTE_START}first`,
        PASTE_END,
        `${PASTE_START}second\rthird${PASTE_END}`,
        `${PASTE_START}fourth\r${PASTE_END}`,
        `${PASTE_START}fifth${PASTE_END}after`,
      ],
    );
  });

  it("takes a read of one key as the person typing: keys are keys again, however long the rest took", () => {
    expect(given(`${PASTE_START}cut off`, null, "more of it\r", null, "h", "i", "\r", "typed\r")).toEqual([
      `${PASTE_START}cut off`,
      PASTE_END,
      `${PASTE_START}more of it\r${PASTE_END}`,
      "",
      "h",
      "i",
      "\r",
      "typed\r",
    ]);
    for (const key of [
      "\r",
      "\u007f",
      "\u001b",
      "\u001b[A",
      "\u001b[1;5D",
      "\u001bOA",
      "\u001bb",
      "\u001b[97u",
      "é",
      "👍",
    ])
      expect(given(`${PASTE_START}a`, null, key), JSON.stringify(key)).toEqual([
        `${PASTE_START}a`,
        PASTE_END,
        key,
      ]);
    // Several keys at once, or a word an input method commits, are text: pasted, the same letters.
    expect(given(`${PASTE_START}a`, null, "\u001b[A\u001b[A", "你好")).toEqual([
      `${PASTE_START}a`,
      PASTE_END,
      `${PASTE_START}\u001b[A\u001b[A${PASTE_END}`,
      `${PASTE_START}你好${PASTE_END}`,
    ]);
  });

  it("holds a marker cut off at the end of a read of the rest, and gives it back after a silence", () => {
    expect(given(`${PASTE_START}a`, null, "b\u001b[", "200~new paste", PASTE_END)).toEqual([
      `${PASTE_START}a`,
      PASTE_END,
      `${PASTE_START}b${PASTE_END}`,
      `${PASTE_START}new paste`,
      PASTE_END,
    ]);
    expect(given(`${PASTE_START}a`, null, "b\u001b[2", null, "x")).toEqual([
      `${PASTE_START}a`,
      PASTE_END,
      `${PASTE_START}b${PASTE_END}`,
      `${PASTE_START}\u001b[2${PASTE_END}`,
      "x",
    ]);
  });

  it("gives a new paste that begins in the rest as it comes", () => {
    expect(given(`${PASTE_START}a`, null, `b\r${PASTE_START}new${PASTE_END}c`)).toEqual([
      `${PASTE_START}a`,
      PASTE_END,
      `${PASTE_START}b\r${PASTE_END}${PASTE_START}new${PASTE_END}c`,
    ]);
  });

  it("ends an open paste at once for Ctrl+C or Ctrl+D pressed alone, and takes the next as a key", () => {
    expect(given(`${PASTE_START}stuck`, CTRL_C, "x\r", CTRL_C, "typed\r")).toEqual([
      `${PASTE_START}stuck`,
      PASTE_END,
      `${PASTE_START}x\r${PASTE_END}`,
      CTRL_C,
      "typed\r",
    ]);
    expect(given(`${PASTE_START}stuck`, CTRL_D, CTRL_D, "x")).toEqual([
      `${PASTE_START}stuck`,
      PASTE_END,
      CTRL_D,
      "x",
    ]);
    // Within a read of text, they are the paste's.
    expect(given(`${PASTE_START}stuck`, `a${CTRL_C}`)).toEqual([`${PASTE_START}stuck`, `a${CTRL_C}`]);
  });
});
