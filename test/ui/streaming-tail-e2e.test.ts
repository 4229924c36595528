import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { countIn } from "../support/fixture-tui.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * A long answer in one paragraph, streamed token by token into the real binary in tmux: taller
 * than the window while it streams, it must still be printed once. A live area taller than the
 * window leaves a copy of itself in the scrollback at each token, since Ink cannot erase rows
 * that scrolled off the top.
 */
const FIRST = "Firstly-unique-opening";
const LAST = "finally-unique-ending.";
// 1,500 words, one paragraph: about 130 rows at 80 columns.
const WORDS = Array.from({ length: 1498 }, (_, index) => `word${index % 97}`);
const ANSWER = [FIRST, ...WORDS, LAST].join(" ");
let model: ScriptedModelServer;
let terminal: TmuxTerminal;

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(() => ({ text: ANSWER, chunkSize: 16, everyMs: 4 }));
  const dir = await tempDir("mcpterm-tui-streaming-");
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 80, rows: 20, scrollback: 5000 });
});

afterAll(async () => {
  terminal.close();
  await model.close();
});

describe("a long single-paragraph answer", () => {
  it("shows its last rows while it streams and is printed once, whole", async () => {
    await terminal.waitFor((screen) => screen.includes("no servers"), "the TUI");
    terminal.text("tell me everything");
    await terminal.waitFor((screen) => screen.includes("› tell me everything"), "the message typed");
    terminal.text("\r");
    const streaming = await terminal.waitForRows(
      (rows) => rows.includes("rows above, printed whole when this part is done"),
      "the paragraph taller than the window, its last rows shown",
    );
    expect(streaming).not.toContain(FIRST);
    // Up to 75 s: on a machine loaded by the rest of the suite (load 10 on two cores), drawing
    // 750 chunks of a growing paragraph took past 30 s (it takes 5 s unloaded).
    const done = await terminal.waitFor(
      (screen) => screen.includes(LAST) && screen.includes("Enter send"),
      "the whole answer",
      75_000,
    );
    expect(countIn(done, FIRST), done).toBe(1);
    expect(countIn(done, LAST), done).toBe(1);
    expect(done).not.toContain("rows above, printed whole");
  }, 120_000);
});
