import { describe, expect, it } from "vitest";
import { echoRowsBelowStart, eraseEcho, keysOfCookedInput } from "../../src/ui/terminal/type-ahead.js";
import { extraRowsAfterReflow, terminalReflows } from "../../src/ui/terminal/reflow-erase.js";

describe("type-ahead from cooked mode", () => {
  it.each([
    ["", 80, 0],
    ["hello", 80, 0],
    ["hello\n", 80, 1],
    ["typed early\nand more", 80, 1],
    ["x".repeat(80), 80, 0],
    ["x".repeat(81), 80, 1],
    [`${"x".repeat(80)}\n`, 80, 1],
    ["日本語", 4, 1],
    ["a\u0001b", 3, 1],
    ["\tx", 8, 1],
  ])("%j echoed %i columns wide moves the cursor down %i rows", (typed, columns, rows) => {
    expect(echoRowsBelowStart(typed, columns)).toBe(rows);
  });

  it("erases from the row the echo began, and gives each line feed back as Enter", () => {
    expect(eraseEcho("typed early\nand more", 80)).toBe("\r\u001b[1A\u001b[J");
    expect(eraseEcho("abc", 80)).toBe("\r\u001b[J");
    expect(keysOfCookedInput("typed early\nand more")).toBe("typed early\rand more");
  });
});

describe("erasing a frame a narrowed terminal re-wrapped", () => {
  it.each([
    ["", 60, 0],
    ["short\nlines", 60, 0],
    [`${"─".repeat(120)}\n│ › draft${" ".repeat(109)}│\nstatus`, 60, 2],
    [`\u001b[7m${"x".repeat(61)}\u001b[27m`, 60, 1],
    ["x".repeat(120), 40, 2],
  ])("%#", (frame, columns, extra) => {
    expect(extraRowsAfterReflow(frame, columns)).toBe(extra);
  });

  it.each([
    [{ TERM: "xterm-256color" }, true],
    [{ TERM: "xterm-256color", XTERM_VERSION: "XTerm(390)" }, false],
    [{ TERM: "screen-256color", TMUX: "/tmp/tmux-0/default,1,0", XTERM_VERSION: "XTerm(390)" }, true],
    [{ TERM: "linux" }, false],
    [{ TERM: "rxvt-unicode-256color" }, false],
    [{ TERM: "st-256color" }, false],
    [{ TERM: "screen", STY: "1234.pts-0" }, false],
  ])("%j reflows: %s", (env, reflows) => {
    expect(terminalReflows(env)).toBe(reflows);
  });
});
