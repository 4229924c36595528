import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
} from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * What people bring from Claude Code and gemini-cli, in the real binary: a welcome line, an exit
 * line naming the saved session, input history that lasts across sessions of a project, Ctrl+C
 * clearing a whole draft while a turn runs, and Ctrl+L redrawing the screen.
 */
let model: ScriptedModelServer;
let dir: string;
let terminal: TmuxTerminal | undefined;

function reply(request: RecordedRequest) {
  const messages = (request.body as { messages: Array<{ role: string; content: string | null }> }).messages;
  const last = messages.at(-1)?.content ?? "";
  // A turn that runs until the person cancels it.
  if (last.startsWith("slow")) return { hang: true as const };
  return { text: `echo: ${last}` };
}

function start(...args: string[]): TmuxTerminal {
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl, ...args],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 120, rows: 40 });
  return terminal;
}

function promptLine(screen: string): string {
  const line = screen.split("\n").findLast((candidate) => candidate.startsWith("│ › ")) ?? "";
  return line.slice(4, -1).trimEnd();
}

async function send(pane: TmuxTerminal, text: string, answer: string): Promise<void> {
  pane.text(text);
  await pane.waitFor((screen) => promptLine(screen) === text, `"${text}" typed`);
  pane.text("\r");
  await pane.waitFor((screen) => screen.includes(answer), `the answer to "${text}"`);
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(reply);
  dir = await tempDir("mcpterm-tui-habits-");
});

afterEach(() => terminal?.close());

afterAll(async () => {
  await model.close();
});

describe("habits people bring from other terminal assistants", () => {
  it("says what it is at start, how to go on at exit, and keeps ↑'s history for the next session", async () => {
    const first = start();
    const welcome = await first.waitFor((screen) => screen.includes("/help for commands"), "the welcome");
    expect(welcome).toMatch(
      /mcpterm \d+\.\d+\.\d+ · scripted · \S+ · 0 servers · \/help for commands, Ctrl\+D to exit/,
    );
    await send(first, "the first question", "echo: the first question");
    await send(first, "the second question", "echo: the second question");
    // Idle first: Ctrl+D during a turn asks for a second press instead of exiting.
    await first.waitFor((screen) => screen.includes("Ctrl+D exit"), "no turn running");
    first.keys("C-d");
    const ended = await first.waitFor((screen) => screen.includes("EXITED 0"), "the exit");
    const id = /Saved as session (\S+); go on with it: mcpterm --resume \1 \(or mcpterm --continue\)/.exec(
      ended,
    )?.[1];
    expect(id).toBeDefined();
    // The history file is the person's alone, like the sessions.
    expect((await stat(path.join(dir, ".mcpterm", "history.jsonl"))).mode & 0o777).toBe(0o600);

    const next = start();
    await next.waitFor((screen) => screen.includes("/help for commands"), "the next session");
    next.keys("Up");
    await next.waitFor((screen) => promptLine(screen) === "the second question", "↑ to the last message");
    next.keys("Up");
    await next.waitFor((screen) => promptLine(screen) === "the first question", "↑ to the one before");
    // Edited, then left with ↓ and come back to with ↑ (as the terminal sends them, in one
    // read): the edit is still there.
    next.text(" again");
    await next.waitFor((screen) => promptLine(screen) === "the first question again", "the edit");
    next.text("\x1b[B");
    await next.waitFor((screen) => promptLine(screen) === "the second question", "↓ away from the edit");
    next.text("\x1b[A");
    await next.waitFor((screen) => promptLine(screen) === "the first question again", "↑ back to the edit");
  }, 60_000);

  it("Ctrl+C clears a multi-line draft while a turn runs, and leaves the turn running; Ctrl+L redraws", async () => {
    const pane = start();
    await pane.waitFor((screen) => screen.includes("/help for commands"), "the TUI");
    pane.text("slow please\r");
    await pane.waitFor((screen) => /Esc (or Ctrl\+C )?cancel/.test(screen), "the running turn");
    pane.text("line one");
    pane.keys("M-Enter");
    pane.text("line two");
    await pane.waitFor((screen) => /^│ {3}line two/m.test(screen), "the two-line draft");
    pane.keys("C-c");
    const cleared = await pane.waitFor(
      (screen) => !screen.includes("line two") && promptLine(screen) === "",
      "the draft cleared",
    );
    // The turn goes on: Ctrl+C took the draft, not the turn.
    expect(cleared).toMatch(/Esc (or Ctrl\+C )?cancel/);
    expect(cleared).not.toMatch(/interrupted/i);
    pane.keys("Escape");
    await pane.waitFor((screen) => /interrupted/i.test(screen), "Esc to cancel the turn");
    pane.keys("C-l");
    await pane.waitFor(
      (screen) =>
        screen.startsWith("╭") && screen.split("\n").filter((line) => line.startsWith("╭")).length === 1,
      "the live area drawn again at the top",
    );
  }, 60_000);
});
