import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * The completion menu in the real binary, in a pseudo-terminal: it opens as `/` or `@` is typed,
 * lists its choices one a row with what each is, follows the typing, and takes ↑/↓, Tab, Enter
 * and Esc as terminals send them.
 */
let model: ScriptedModelServer;
let dir: string;
let terminal: TmuxTerminal | undefined;

const DOWN = "\u001b[B";
const UP = "\u001b[A";

function start(): TmuxTerminal {
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 100, rows: 30 });
  return terminal;
}

/** The prompt's line as drawn, `│ › …`, without the box's padding. */
function promptLine(screen: string): string {
  const line = screen.split("\n").findLast((candidate) => candidate.startsWith("│ › ")) ?? "";
  return line.slice(4, -1).trimEnd();
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(() => ({ text: "ok" }));
  dir = await tempDir("mcpterm-tui-menu-");
  await mkdir(path.join(dir, "docs"));
  await writeFile(path.join(dir, "docs", "guide.md"), "# Guide\n");
  await writeFile(path.join(dir, "notes.txt"), "notes\n");
});

afterEach(() => terminal?.close());

afterAll(async () => {
  await model.close();
});

describe("the completion menu", () => {
  it("lists commands with their descriptions as / is typed, follows the typing, and Enter runs the choice", async () => {
    const pane = start();
    await pane.waitFor((screen) => screen.includes("no servers"), "the TUI");
    pane.text("/");
    const menu = await pane.waitFor((screen) => /^\s+\/help\s+\S/m.test(screen), "the menu");
    expect(menu).toMatch(/^\s+\/tools\s+.*tool/m);
    pane.text("st");
    const narrowed = await pane.waitFor((screen) => promptLine(screen) === "/st", "the narrowed menu");
    expect(narrowed).toMatch(/^\s+\/stats\b/m);
    expect(narrowed).not.toMatch(/^\s+\/help\b/m);
    // Enter takes the choice and runs it.
    pane.text("\r");
    await pane.waitFor((screen) => screen.includes("› /stats"), "the command run");
  }, 60_000);

  it("offers files and folders for @, with ↓ and Tab, and Esc closes it without losing the draft", async () => {
    const pane = start();
    await pane.waitFor((screen) => screen.includes("no servers"), "the TUI");
    pane.text("read @");
    const files = await pane.waitFor((screen) => /^\s+@docs\/\s+folder/m.test(screen), "the file menu");
    expect(files).toMatch(/^\s+@notes\.txt\s+file/m);
    pane.text(`${DOWN}${UP}${DOWN}\t`);
    await pane.waitFor((screen) => promptLine(screen) === "read @notes.txt", "the file taken");
    pane.text("and @d");
    await pane.waitFor((screen) => /^\s+@docs\/\s+folder/m.test(screen), "the menu again");
    pane.keys("Escape");
    const closed = await pane.waitFor((screen) => !/^\s+@docs\/\s+folder/m.test(screen), "the menu closed");
    expect(promptLine(closed)).toBe("read @notes.txt and @d");
  }, 60_000);
});
