import { existsSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * A bracketed paste whose end the terminal never sends, in the real binary: Ink alone would hold
 * every key after it, Enter and Ctrl+D included, and the person could neither type nor leave.
 */
let model: ScriptedModelServer;
let dir: string;
let terminal: TmuxTerminal | undefined;

function promptLine(screen: string): string {
  const line = screen.split("\n").findLast((candidate) => candidate.startsWith("│ › ")) ?? "";
  return line.slice(4, -1).trimEnd();
}

/** The key hints, the screen's last line. */
function hintLine(screen: string): string {
  return screen.trimEnd().split("\n").at(-1)?.trim() ?? "";
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer((request) => {
    const messages = (request.body as { messages: Array<{ content: string | null }> }).messages;
    return { text: `echo: ${messages.at(-1)?.content ?? ""}` };
  });
  dir = await tempDir("mcpterm-open-paste-");
});

afterEach(() => terminal?.close());

afterAll(async () => {
  await model.close();
});

describe("a paste whose end never comes", () => {
  it("is ended after a silence, keeping what came and what the person typed into it", async () => {
    const command = mcptermPaneCommand({
      home: dir,
      args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
    });
    terminal = new TmuxTerminal(command, { cwd: dir, columns: 120, rows: 40 });
    await terminal.waitFor((screen) => screen.includes("Ctrl+D exit"), "the idle prompt");
    // The start of a paste, its text, and no end; then the person, seeing nothing happen, types
    // and presses Enter, as one does at a prompt that does not answer.
    terminal.text("\u001b[200~half a paste");
    terminal.text(" and typing");
    terminal.text("\r");
    await terminal.waitFor(
      (screen) => promptLine(screen).includes("half a paste and typing"),
      "the paste in the prompt",
    );
    // The Enter typed into the paste is a line break in it: nothing was sent. The person is told
    // why, and how to type as usual.
    expect(model.requests).toHaveLength(0);
    await terminal.waitFor((screen) => screen.includes("A paste did not end"), "the notice");
    expect(terminal.screen()).toMatch(/press Esc to\s+(?:│\s+)?type as usual/);
    // The key hints say so too for as long as it lasts, not "Enter send".
    await terminal.waitFor(
      (screen) => hintLine(screen).includes("paste not ended: Enter adds a line"),
      "the hint",
    );
    expect(hintLine(terminal.screen())).not.toContain("Enter send");
    // The keys work again: Ctrl+C clears the draft (taken as a key whether or not the rest of the
    // paste could still have come), and what is typed next is sent by Enter.
    terminal.keys("C-c");
    await terminal.waitFor((screen) => promptLine(screen) === "", "the draft cleared");
    await terminal.waitFor((screen) => hintLine(screen).startsWith("Enter send"), "the usual hints back");
    terminal.text("hello");
    await terminal.waitFor((screen) => promptLine(screen) === "hello", "typing after it");
    terminal.text("\r");
    await terminal.waitFor((screen) => screen.includes("echo: hello"), "the answer");
    expect(model.requests).toHaveLength(1);
    await terminal.waitFor((screen) => screen.includes("Ctrl+D exit"), "no turn running");
    terminal.keys("C-d");
    await terminal.waitFor((screen) => screen.includes("EXITED 0"), "the exit");
  });
});
