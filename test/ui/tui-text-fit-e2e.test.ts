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
 * How text is fitted to the window in the real binary in tmux: command syntax in /help read
 * whole, wrapped lines that start where their text does.
 */
let model: ScriptedModelServer;
let dir: string;
let terminal: TmuxTerminal | undefined;

/**
 * Paragraphs whose first words fill 38, 39 and 40 columns exactly, then go on: in a 40-column
 * window, whatever the answer's margin, one of them has a row that ends right before a space.
 */
const EDGE_ANSWER = [38, 39, 40]
  .map((width) => `${"fits ".repeat(6)}${"x".repeat(width - 30)} tail words`)
  .join("\n\n");

function lastUserMessage(request: RecordedRequest): string {
  const messages = (request.body as { messages: Array<{ role: string; content: string }> }).messages;
  return messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
}

async function start(columns: number): Promise<TmuxTerminal> {
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns, rows: 50 });
  await terminal.waitFor((screen) => screen.includes("no servers"), "the TUI");
  return terminal;
}

/** Types a line and sends it once it shows, so Enter never arrives in the same read as the text. */
async function send(pane: TmuxTerminal, text: string): Promise<void> {
  pane.text(text);
  await pane.waitFor((screen) => screen.includes(`› ${text}`), `"${text}" in the prompt`);
  pane.text("\r");
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer((request) =>
    lastUserMessage(request) === "edge" ? { text: EDGE_ANSWER } : { text: "ok" },
  );
  dir = await tempDir("mcpterm-tui-fit-");
});

afterEach(() => terminal?.close());

afterAll(async () => {
  await model.close();
});

describe("text fitted to the window", () => {
  it("shows each command's syntax in /help whole, even where it is longer than its column", async () => {
    const pane = await start(120);
    await send(pane, "/help");
    const help = await pane.waitFor((screen) => screen.includes("/exit"), "the help");
    const lines = help.split("\n").map((line) => line.trimEnd());
    expect(lines).toContain(
      "/mcp [info <server> | logs <server> | loglevel <server> <level> | restart <server> | login <server> | logout <server>]",
    );
    expect(lines).toContain("/kb [search <query> | reindex | add <path|url> | remove <path>]");
    // Each description still starts in the column of the others.
    const column = (line: string | undefined, words: string): number => line?.indexOf(words) ?? -1;
    expect(
      column(
        lines.find((line) => line.includes("server status;")),
        "server status;",
      ),
    ).toBe(
      column(
        lines.find((line) => line.startsWith("/help")),
        "list the commands",
      ),
    );
    expect(help).not.toMatch(/^\/\S*[^\n]*…/m);
  }, 60_000);

  it("starts a wrapped row with its word, not with the space before it", async () => {
    const pane = await start(40);
    await send(pane, "edge");
    await pane.waitFor((screen) => screen.split("tail words").length === 4, "the answer");
    // The rows as drawn (tmux joins rows the terminal wrapped; these are Ink's own).
    const rows = pane.rows().split("\n");
    const answer = rows.slice(
      rows.indexOf("› edge") + 1,
      rows.findIndex((row) => row.startsWith("╭")),
    );
    expect(answer.filter((row) => row.includes("tail"))).toHaveLength(3);
    expect(answer.filter((row) => row.startsWith(" "))).toEqual([]);
  }, 60_000);
});
