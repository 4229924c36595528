import { existsSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * Emoji joined into one (a skin tone, a ZWJ family) in the prompt of the real binary in tmux,
 * which draws every part of them: the box is laid out at that width, so its border never wraps
 * and a redraw leaves nothing behind.
 */
let dir: string;
let terminal: TmuxTerminal | undefined;

const THUMB = "👍🏽";
const FAMILY = "👨‍👩‍👧";

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  dir = await tempDir("mcpterm-tui-emoji-");
});

afterEach(() => terminal?.close());

describe("joined emoji in the prompt", () => {
  it("keeps the box inside the window and leaves no border behind, however many redraws", async () => {
    // The model is never asked: nothing is sent.
    const command = mcptermPaneCommand({
      home: dir,
      args: ["--no-kb", "--model", "scripted", "--base-url", "http://127.0.0.1:9/v1"],
    });
    terminal = new TmuxTerminal(command, { cwd: dir, columns: 60, rows: 20, scrollback: 500 });
    const pane = terminal;
    await pane.waitFor((screen) => screen.includes("no servers"), "the TUI");
    // Each key is its own read and its own redraw; enough of them to wrap the draft twice.
    const typed = ["hi ", THUMB, " and ", FAMILY, " "];
    for (let round = 0; round < 6; round += 1) typed.push(THUMB, FAMILY, " ");
    for (const key of typed) pane.text(key);
    pane.text("end");
    const shown = await pane.waitFor((screen) => screen.includes("end"), "the draft");
    expect(shown.split("\n").filter((line) => line.startsWith("╭"))).toHaveLength(1);
    // The rows as tmux shows them: a border pushed past the edge would wrap onto a row of its own.
    const rows = pane.rows().split("\n");
    const top = rows.findIndex((row) => row.startsWith("╭"));
    const bottom = rows.findIndex((row) => row.startsWith("╰"));
    const inside = rows.slice(top + 1, bottom);
    expect(inside.length).toBeGreaterThanOrEqual(2);
    for (const row of inside) expect(row).toMatch(/^│ .*│$/u);
    expect(inside.join("")).toContain(FAMILY);
  }, 60_000);
});
