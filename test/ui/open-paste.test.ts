import { describe, expect, it } from "vitest";
import { OpenPaste, PASTE_END, PASTE_START } from "../../src/ui/terminal/open-paste.js";

const ESC = "\u001b";
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
    expect(paste.owed).toBe(false);
    expect(paste.see(`${PASTE_END}typed\r`)).toBe(`${PASTE_END}typed\r`);
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
    expect(paste.owed).toBe(false);
  });

  it("ends a paste after a silence, owing its end, and a silence then gives nothing more", () => {
    const paste = new OpenPaste();
    expect(paste.see(`${PASTE_START}cut off`)).toBe(`${PASTE_START}cut off`);
    expect(paste.quiet()).toBe(PASTE_END);
    expect(paste.owed).toBe(true);
    expect(paste.waiting).toBe(false);
    expect(paste.quiet()).toBe("");
    expect(paste.owed).toBe(true);
  });

  it("gives whatever comes while the end is owed as pasted text, one key or many, until the end", () => {
    expect(
      given(
        `${PASTE_START}first`,
        null,
        "\r",
        "\u001b[C",
        "second\rthird",
        null,
        "y",
        `fourth\r${PASTE_END}after\r`,
        "\r",
      ),
    ).toEqual([
      `${PASTE_START}first`,
      PASTE_END,
      `${PASTE_START}\r${PASTE_END}`,
      `${PASTE_START}\u001b[C${PASTE_END}`,
      `${PASTE_START}second\rthird${PASTE_END}`,
      "",
      `${PASTE_START}y${PASTE_END}`,
      `${PASTE_START}fourth\r${PASTE_END}after\r`,
      "\r",
    ]);
  });

  it("types as usual again after Esc alone (given nothing) or Ctrl+C or Ctrl+D alone (given as keys)", () => {
    expect(given(`${PASTE_START}a`, null, ESC, "typed\r")).toEqual([
      `${PASTE_START}a`,
      PASTE_END,
      "",
      "typed\r",
    ]);
    expect(given(`${PASTE_START}a`, null, CTRL_C, "typed\r")).toEqual([
      `${PASTE_START}a`,
      PASTE_END,
      CTRL_C,
      "typed\r",
    ]);
    expect(given(`${PASTE_START}a`, null, CTRL_D, "\r")).toEqual([
      `${PASTE_START}a`,
      PASTE_END,
      CTRL_D,
      "\r",
    ]);
  });

  it("ends an open paste at once for Ctrl+C or Ctrl+D pressed alone, taken as that alone", () => {
    expect(given(`${PASTE_START}stuck`, CTRL_C, "x\r", CTRL_C, "typed\r")).toEqual([
      `${PASTE_START}stuck`,
      PASTE_END,
      `${PASTE_START}x\r${PASTE_END}`,
      CTRL_C,
      "typed\r",
    ]);
    // Within a read of text, they are the paste's.
    expect(given(`${PASTE_START}stuck`, `a${CTRL_C}`)).toEqual([`${PASTE_START}stuck`, `a${CTRL_C}`]);
  });

  it("holds a marker cut off at the end of a read while the end is owed", () => {
    expect(given(`${PASTE_START}a`, null, "b\u001b[", "201~after\r")).toEqual([
      `${PASTE_START}a`,
      PASTE_END,
      `${PASTE_START}b${PASTE_END}`,
      `${PASTE_START}\u001b[201~after\r`,
    ]);
    expect(given(`${PASTE_START}a`, null, "b\u001b[", "200~new paste", PASTE_END)).toEqual([
      `${PASTE_START}a`,
      PASTE_END,
      `${PASTE_START}b${PASTE_END}`,
      `${PASTE_START}new paste`,
      PASTE_END,
    ]);
    // Not a marker after all: pasted text after a silence, or before a key that ends the owing.
    expect(given(`${PASTE_START}a`, null, "b\u001b[2", null, "x")).toEqual([
      `${PASTE_START}a`,
      PASTE_END,
      `${PASTE_START}b${PASTE_END}`,
      `${PASTE_START}\u001b[2${PASTE_END}`,
      `${PASTE_START}x${PASTE_END}`,
    ]);
    expect(given(`${PASTE_START}a`, null, "b\u001b", CTRL_C)).toEqual([
      `${PASTE_START}a`,
      PASTE_END,
      `${PASTE_START}b${PASTE_END}`,
      `${PASTE_START}\u001b${PASTE_END}${CTRL_C}`,
    ]);
  });

  it("gives a new paste that begins while the end is owed as it comes", () => {
    expect(given(`${PASTE_START}a`, null, `b\r${PASTE_START}new${PASTE_END}c`)).toEqual([
      `${PASTE_START}a`,
      PASTE_END,
      `${PASTE_START}b\r${PASTE_END}${PASTE_START}new${PASTE_END}c`,
    ]);
  });

  it("drops an Escape that comes with a paste in one read, which Ink would take for one key", () => {
    expect(given(`${ESC}${PASTE_START}pasted\r${PASTE_END}`)).toEqual([`${PASTE_START}pasted\r${PASTE_END}`]);
    expect(given(`x${ESC}`)).toEqual([`x${ESC}`]);
  });
});
