import { describe, expect, it } from "vitest";
import { TerminalReplyFilter } from "../../src/ui/terminal/terminal-replies.js";

const ESC = "\u001b";

function keysOf(...reads: string[]): string[] {
  const filter = new TerminalReplyFilter();
  return reads.map((read) => filter.push(read));
}

describe("TerminalReplyFilter", () => {
  it.each([
    ["a cursor position", `${ESC}[2;2R`],
    ["a cursor position on a wide screen", `${ESC}[120;300R`],
    ["primary device attributes", `${ESC}[?62;22;52c`],
    ["secondary device attributes", `${ESC}[>0;276;0c`],
    ["a status report", `${ESC}[0n`],
    ["a mode report", `${ESC}[?2004;2$y`],
    ["kitty keyboard flags", `${ESC}[?0u`],
    ["a window size", `${ESC}[8;40;120t`],
    ["a background colour ended by BEL", `${ESC}]11;rgb:1e1e/1e1e/1e1e\u0007`],
    ["a foreground colour ended by ST", `${ESC}]10;rgb:ffff/ffff/ffff${ESC}\\`],
    ["a DCS answer", `${ESC}P1$r0m${ESC}\\`],
    ["xterm's version", `${ESC}P>|XTerm(388)${ESC}\\`],
    ["a kitty graphics answer", `${ESC}_Gi=1;OK${ESC}\\`],
  ])("drops %s", (_what, reply) => {
    expect(keysOf(`a${reply}b`)).toEqual(["ab"]);
  });

  it.each([
    ["arrows", `${ESC}[A${ESC}[B`],
    ["Ctrl+arrow", `${ESC}[1;5C`],
    ["Delete and PgUp", `${ESC}[3~${ESC}[5~`],
    ["a bracketed paste", `${ESC}[200~pasted${ESC}[201~`],
    ["Escape alone", ESC],
    ["Alt+b", `${ESC}b`],
    ["Ctrl+G, Enter and Backspace", "\u0007\r\u007f"],
    ["Alt+] then a letter", `${ESC}]x`],
    ["text with CJK and emoji", "你好 👍🏽"],
  ])("keeps %s", (_what, keys) => {
    expect(keysOf(keys)).toEqual([keys]);
  });

  it("holds a reply cut off by the end of a read and drops it once it is whole", () => {
    expect(keysOf(`x${ESC}]11;rgb:1e1e`, "/1e1e/1e1e\u0007y")).toEqual(["x", "y"]);
    expect(keysOf(`${ESC}[24;`, "1Rz")).toEqual(["", "z"]);
    expect(keysOf(`${ESC}]`, "11;rgb:0/0/0\u0007q")).toEqual(["", "q"]);
  });

  it("gives back what was held when the next read shows it was a key", () => {
    expect(keysOf(`${ESC}[1;`, "5A")).toEqual(["", `${ESC}[1;5A`]);
    expect(keysOf(`${ESC}]`, "x")).toEqual(["", `${ESC}]x`]);
  });

  it("throws away an endless string reply rather than typing it", () => {
    const filter = new TerminalReplyFilter();
    expect(filter.push(`${ESC}]11;${"0".repeat(5000)}`)).toBe("");
    expect(filter.push("typed")).toBe("typed");
  });
});
