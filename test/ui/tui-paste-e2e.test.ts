import { existsSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
} from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * Pastes in the real binary in a pseudo-terminal, as tmux pastes (bracketed, each line ending in
 * CR): the line breaks kept, a paste taller than the window put in as a placeholder, and the
 * live area never taller than the window, so typing leaves no copies of the box behind.
 */
let model: ScriptedModelServer;
let dir: string;
let terminal: TmuxTerminal | undefined;

function lastUserMessage(request: RecordedRequest | undefined): string {
  const body = request?.body as { messages: Array<{ role: string; content: string }> } | undefined;
  return body?.messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
}

function start(): TmuxTerminal {
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 100, rows: 30, scrollback: 3000 });
  return terminal;
}

/** The top borders of boxes on the screen and in the scrollback: one box is one border. */
const boxes = (screen: string): number => screen.split("\n").filter((line) => line.startsWith("╭")).length;

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(() => ({ text: "received" }));
  dir = await tempDir("mcpterm-tui-paste-");
});

afterEach(() => terminal?.close());

afterAll(async () => {
  await model.close();
});

describe("pastes in the TUI", () => {
  it("keeps the line breaks of a paste whose lines end in CR", async () => {
    const pane = start();
    await pane.waitFor((screen) => screen.includes("no servers"), "the TUI");
    pane.paste("alpha\nbeta\ngamma");
    const shown = await pane.waitFor((screen) => screen.includes("gamma"), "the paste");
    expect(shown).toMatch(/│ › alpha\s+│\n│ {3}beta\s+│\n│ {3}gamma/);
    pane.text("\r");
    await pane.waitFor((screen) => screen.includes("received"), "the answer");
    expect(lastUserMessage(model.requests.at(-1))).toBe("alpha\nbeta\ngamma");
  }, 60_000);

  it("puts a 400-line paste in as a placeholder, leaves no copies while typing, and sends it whole", async () => {
    const pane = start();
    await pane.waitFor((screen) => screen.includes("no servers"), "the TUI");
    const lines = Array.from({ length: 400 }, (_, index) => `line ${index + 1} of the release notes`);
    pane.text("notes: ");
    await pane.waitFor((screen) => screen.includes("› notes:"), "the typing");
    pane.paste(lines.join("\n"));
    await pane.waitFor((screen) => screen.includes("[Pasted text #1 +400 lines]"), "the placeholder");
    // Five keys, in separate reads, each redrawing the box.
    for (const key of ["o", "k", "\u007f", "!", " "]) pane.text(key);
    const typed = await pane.waitFor(
      (screen) => screen.includes("[Pasted text #1 +400 lines]o! "),
      "the typing after the paste",
    );
    expect(boxes(typed)).toBe(1);
    expect(typed).not.toContain("line 399 of the release notes");
    pane.text("\r");
    await pane.waitFor((screen) => screen.includes("received"), "the answer");
    expect(lastUserMessage(model.requests.at(-1))).toBe(`notes: ${lines.join("\n")}o! `);
  }, 60_000);
});
