import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/core/text/index.js";
import { COMMAND_WORDS, startsInteractive } from "../../src/early-frame-gate.js";
import { frameText, typedText, visibleDraft } from "../../src/ui/terminal/early-frame.js";
import { REPO_ROOT } from "../support/fixtures.js";

describe("which command lines get the early frame", () => {
  it.each<[string[], boolean]>([
    [[], true],
    [["--model", "gpt-4.1", "--no-kb"], true],
    [["--resume"], true],
    [["--config=other.json", "--trust-config"], true],
    [["-p", "hi"], false],
    [["--prompt=hi"], false],
    [["--help"], false],
    [["--version"], false],
    [["tools"], false],
    [["--debug", "call", "s/t"], false],
    [["doctor", "--", "node", "server.js"], false],
  ])("%j → %s", (argv, expected) => {
    expect(startsInteractive(argv, true)).toBe(expected);
  });

  it("never without a terminal", () => {
    expect(startsInteractive([], false)).toBe(false);
  });

  it("knows every command the parser lists in --help", async () => {
    const help = await readFile(path.join(REPO_ROOT, "dist", "help.txt"), "utf8");
    const section = help.slice(help.indexOf("Commands:"), help.indexOf("Options:"));
    const listed = [...section.matchAll(/^ {2}mcpterm (\w+)/gm)].map((match) => match[1]);
    expect(listed.length).toBeGreaterThan(5);
    for (const word of listed) expect(COMMAND_WORDS.has(word ?? "")).toBe(true);
  });
});

describe("the early frame's rows", () => {
  it("shows the last line of the draft, Backspace applied, keys' escape sequences left out", () => {
    expect(visibleDraft("abc\u007fd")).toBe("abd");
    expect(visibleDraft("first\rsecond")).toBe("second");
    expect(visibleDraft("a\u001b[Ab\u001b[200~c")).toBe("abc");
    expect(visibleDraft("👍🏽\u007fok")).toBe("ok");
    // An OSC string, C1 controls and a BiDi override are not drawn as they are.
    expect(visibleDraft("a\u001b]0;title\u0007b")).toBe("ab");
    expect(visibleDraft("x\u009b31my")).not.toContain("\u009b");
    expect(visibleDraft("evil\u202Etxt")).not.toContain("\u202E");
    expect(visibleDraft("first\r\nsecond")).toBe("second");
  });

  it("gives back what the prompt would hold, for when mcpterm stops before sending it", () => {
    // Each Enter is a message that was never sent; a line ending in \ goes on, as at the prompt.
    expect(typedText("one\rtwo\u007fo\r")).toBe("one\ntwo");
    expect(typedText("a\\\rb")).toBe("a\nb");
    // A paste's line breaks are lines too; its brackets and an arrow key are not text.
    expect(typedText("\u001b[200~a\nb\r\nc\u001b[201~\u001b[D")).toBe("a\nb\nc");
    expect(typedText("\r\r  \r")).toBe("");
    expect(typedText("\u001b[A\u0004")).toBe("");
    const hostile = typedText("x\u001b]52;c;aGk=\u0007y\u009b2J");
    expect(hostile).not.toContain("\u001b");
    expect(hostile).not.toContain("\u009b");
  });

  it("leaves out what was erased, with the prompt's own editing keys", () => {
    // Ctrl+U, Ctrl+W and Alt+Backspace erase as they do at the prompt: a token typed by mistake stays gone.
    expect(typedText("my token is sk-abc123\u0015hello\u0017bye")).toBe("bye");
    expect(typedText("keep this secret-word\u001b\u007f")).toBe("keep this secret-");
    // Arrows, Home and End move the cursor; typing lands where it is.
    expect(typedText("helo\u001b[Dl")).toBe("hello");
    expect(typedText("world\u001b[Hhello \u001b[F!")).toBe("hello world!");
    expect(typedText("ab\u001b[1;5Dx")).toBe("xab");
    // A terminal's replies (device attributes, a cursor report, focus) are not typing.
    expect(typedText("a\u001b[?1;2cb\u001b[12;5Rc\u001b[I")).toBe("abc");
    expect(visibleDraft("first line\u001b[200~\nsecond\u001b[201~\u001b[A")).toBe("first line");
  });

  it("fills the width exactly, with a long draft's end in view", () => {
    const rows = frameText(`${"x".repeat(200)}END`, 40, { status: "s".repeat(100), color: false })
      .split("\r\n")
      .map((row) => row.replace("\u001b[2K", ""));
    expect(rows).toHaveLength(4);
    for (const row of rows.slice(0, 3)) expect(displayWidth(row)).toBe(40);
    expect(rows[1]).toMatch(/xEND│$/);
    expect(displayWidth(rows[3] ?? "")).toBeLessThan(40);
  });

  it("keeps the border in place with wide characters", () => {
    const row = frameText("日本語", 20, { status: "", color: false }).split("\r\n")[1] ?? "";
    expect(displayWidth(row.replace("\u001b[2K", ""))).toBe(20);
  });

  it("writes a pasted tab as the spaces to the next tab stop, so the row keeps its width", () => {
    for (const typed of ["\u001b[200~a\tb\u001b[201~", "\u001b[200~\t\t\t\t\t\t\t\t\tend\u001b[201~"]) {
      const row = frameText(typed, 40, { status: "", color: false }).split("\r\n")[1] ?? "";
      expect(row).not.toContain("\t");
      // What the terminal takes: the row ends at the window's edge, on the border.
      expect(displayWidth(row.replace("\u001b[2K", ""))).toBe(40);
      expect(row).toMatch(/│$/);
    }
    // The draft starts in column 4: "a" there, its tab to column 8.
    expect(frameText("\u001b[200~a\tb\u001b[201~", 40, { status: "", color: false })).toContain("│ › a   b");
  });
});
