import { describe, expect, it } from "vitest";
import { OpenPaste, PASTE_END, PASTE_START } from "../../src/ui/terminal/open-paste.js";

describe("OpenPaste", () => {
  it("sees a paste left open by a read, and closed by a later one", () => {
    const paste = new OpenPaste();
    expect(paste.see(`a${PASTE_START}half of it`)).toBe(`a${PASTE_START}half of it`);
    expect(paste.isOpen).toBe(true);
    paste.see("more of it");
    expect(paste.isOpen).toBe(true);
    paste.see(`the rest${PASTE_END}typed`);
    expect(paste.isOpen).toBe(false);
  });

  it("finds a marker cut in two by the end of a read", () => {
    const paste = new OpenPaste();
    paste.see("x\u001b[20");
    paste.see("0~pasted");
    expect(paste.isOpen).toBe(true);
    paste.see("end\u001b[2");
    paste.see("01~");
    expect(paste.isOpen).toBe(false);
  });

  it("leaves whole pastes and plain typing alone", () => {
    const paste = new OpenPaste();
    expect(paste.see(`${PASTE_START}one${PASTE_END}${PASTE_START}two${PASTE_END}\r`)).toBe(
      `${PASTE_START}one${PASTE_END}${PASTE_START}two${PASTE_END}\r`,
    );
    expect(paste.isOpen).toBe(false);
    expect(paste.endForThem()).toBe("");
    expect(paste.see(`${PASTE_END}typed`)).toBe(`${PASTE_END}typed`);
  });

  it("ends an open paste once, and makes a late rest with its end a paste of its own", () => {
    const paste = new OpenPaste();
    paste.see(`${PASTE_START}first line\r`);
    expect(paste.endForThem()).toBe(PASTE_END);
    expect(paste.isOpen).toBe(false);
    expect(paste.endForThem()).toBe("");
    // The rest of the paste came after all: its line break must not send the prompt.
    expect(paste.see(`second line\r${PASTE_END}x`)).toBe(`${PASTE_START}second line\r${PASTE_END}x`);
    expect(paste.isOpen).toBe(false);
    // Once the terminal's end came, a stray end is the terminal's business again.
    expect(paste.see(`y${PASTE_END}`)).toBe(`y${PASTE_END}`);
  });

  it("types what the person types after an ended paste when no end follows", () => {
    const paste = new OpenPaste();
    paste.see(`${PASTE_START}cut off`);
    paste.endForThem();
    expect(paste.see("hello\r")).toBe("hello\r");
    expect(paste.see(`${PASTE_START}a new paste${PASTE_END}`)).toBe(`${PASTE_START}a new paste${PASTE_END}`);
    expect(paste.isOpen).toBe(false);
  });
});
