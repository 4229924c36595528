import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeAll, afterAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { waitForFileText } from "../support/poll.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
} from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * The terminal handed to an external editor and taken back, in a real pseudo-terminal: real vim
 * (which asks the terminal for the cursor position and its colours as it starts), and an editor
 * that leaves while the terminal's answers are still on their way. Keys go in as terminal bytes.
 */
let model: ScriptedModelServer;
let dir: string;
let terminal: TmuxTerminal | undefined;

function lastUserMessage(request: RecordedRequest | undefined): string {
  const body = request?.body as { messages: Array<{ role: string; content: string }> } | undefined;
  return body?.messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
}

/** The prompt's line as drawn, `│ › …`, without the box's padding. */
function promptLine(screen: string): string {
  const line = screen.split("\n").findLast((candidate) => candidate.startsWith("│ › ")) ?? "";
  return line.slice(4, -1).trimEnd();
}

function start(editor: string): TmuxTerminal {
  const command = mcptermPaneCommand({
    home: dir,
    env: [`VISUAL=${editor}`],
    args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 100, rows: 30 });
  return terminal;
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(() => ({ text: "got it" }));
  dir = await tempDir("mcpterm-tui-vim-");
});

afterEach(() => terminal?.close());

afterAll(async () => {
  await model.close();
});

describe("the external editor has the terminal to itself, and mcpterm takes it back", () => {
  it("edits the draft in real vim, then types, sends and exits as before", async () => {
    const pane = start("vim");
    await pane.waitFor((screen) => screen.includes("no servers"), "the TUI");
    pane.text("first line");
    await pane.waitFor((screen) => promptLine(screen) === "first line", "the draft");
    pane.text("\u0007");
    // vim draws its own screen: the draft, and `~` on the empty lines below it.
    await pane.waitFor(
      (screen) => screen.startsWith("first line") && screen.includes("\n~"),
      "vim with the draft",
    );
    // Every key must reach vim: `A` appends, Esc leaves insert mode, `:wq` saves and quits.
    pane.text("A, edited in vim");
    pane.keys("Escape");
    pane.text(":wq");
    pane.keys("Enter");
    await pane.waitFor((screen) => promptLine(screen) === "first line, edited in vim", "the edited draft");
    // The terminal is mcpterm's again: typing, Backspace (DEL) and Enter work.
    pane.text(" and typed\u007f\u007f\u007f\u007f\u007fmore");
    await pane.waitFor(
      (screen) => promptLine(screen) === "first line, edited in vim and more",
      "typing after vim",
    );
    pane.text("\r");
    await pane.waitFor((screen) => screen.includes("got it"), "the answer");
    expect(lastUserMessage(model.requests.at(-1))).toBe("first line, edited in vim and more");
    // And it still ends the way it always does (idle first: Ctrl+D during a turn asks again).
    await pane.waitFor((screen) => screen.includes("Ctrl+D exit"), "no turn running");
    pane.keys("C-d");
    const exited = await pane.waitFor((screen) => screen.includes("EXITED"), "the exit");
    expect(exited).toContain("EXITED 0");
  }, 90_000);

  it("drops the terminal's answers meant for an editor that has already gone", async () => {
    const marker = path.join(dir, "editor-done");
    const editor = path.join(dir, "quick-editor.sh");
    // Like a full-screen editor it turns the terminal's echo off, then leaves at once; the test
    // then sends what a terminal sends back to an editor that had asked: a cursor position, its
    // background colour ended by BEL (Ctrl+G, the editor key, if taken for typing) and its
    // attributes, then one key the person typed.
    await writeFile(editor, `#!/bin/sh\nstty -echo\nprintf ' (edited)' >> "$1"\necho done > '${marker}'\n`, {
      mode: 0o755,
    });
    const pane = start(editor);
    await pane.waitFor((screen) => screen.includes("no servers"), "the TUI");
    pane.text("draft");
    await pane.waitFor((screen) => promptLine(screen) === "draft", "the draft");
    pane.text("\u0007");
    await waitForFileText(marker, "done");
    pane.text("\u001b[24;1R\u001b]11;rgb:1e1e/1e1e/1e1e\u0007\u001b[?62;22c!");
    const back = await pane.waitFor((screen) => promptLine(screen) === "draft (edited)!", "the prompt back");
    expect(back).not.toContain("rgb");
    pane.text(" ok\r");
    await pane.waitFor((screen) => screen.includes("got it"), "the answer");
    expect(lastUserMessage(model.requests.at(-1))).toBe("draft (edited)! ok");
  }, 90_000);
});
