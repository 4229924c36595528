import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir, writeJson } from "../support/fixtures.js";
import { installNotesServer } from "../support/notes-server.js";
import { processesMatching, waitForNoProcesses } from "../support/process-table.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
} from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * A server that crashes in a tool's handler while the TUI runs a turn (the notes fixture's
 * crash-in-handler), in the real binary: the person sees how it ended and why as it happens, and
 * the model is told the same instead of an unknown tool.
 */
const marker = randomUUID();
let model: ScriptedModelServer;
let dir: string;
let terminal: TmuxTerminal | undefined;

function reply(request: RecordedRequest) {
  const messages = (request.body as { messages: Array<{ role: string; content: string | null }> }).messages;
  if (messages.at(-1)?.role === "tool") return { text: `heard: ${messages.at(-1)?.content ?? ""}` };
  return { toolCalls: [{ name: "notes__get_note", arguments: '{"id":1}' }] };
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(reply);
  dir = await tempDir("mcpterm-tui-crash-");
  const script = await installNotesServer(dir);
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      notes: {
        command: process.execPath,
        args: [script, `--marker=${marker}`],
        env: { AUTHOR_BUG: "crash-in-handler" },
      },
    },
  });
});

afterAll(async () => {
  terminal?.close();
  await model.close();
  for (const pid of processesMatching(marker)) process.kill(pid, "SIGKILL");
});

describe("a server that crashes during a TUI turn", () => {
  it("is told to the person and the model by its exit code and error line, started again, and the session goes on", async () => {
    terminal = new TmuxTerminal(
      mcptermPaneCommand({
        home: dir,
        args: ["--no-kb", "--trust-config", "--model", "scripted", "--base-url", model.baseUrl],
      }),
      { cwd: dir, columns: 200, rows: 50 },
    );
    await terminal.waitFor((screen) => screen.includes("1/1 servers ready"), "the server");
    terminal.text("read note 1");
    await terminal.waitFor((screen) => screen.includes("› read note 1"), "the question typed");
    terminal.text("\r");
    const exited = String.raw`server "notes" exited \(code 1\): TypeError: Cannot read properties of undefined \(reading 'title'\)`;
    const unknown = String.raw`heard: The call failed: the result is unknown: server "notes" exited during the call`;
    const screen = await terminal.waitFor((text) => text.includes("heard: "), "the model's answer");
    // The notice, as it happened (the crash recovery starts the server again), and the model's
    // answer: the call's result is unknown, and why the process ended.
    expect(screen).toMatch(
      new RegExp(String.raw`${exited} \(at file:\/\/\/\S+notes\.js:\d+:\d+\) — starting it again`),
    );
    expect(screen).toMatch(new RegExp(unknown));
    await terminal.waitFor((text) => text.includes("1/1 servers ready"), "the server back");

    // The next turn goes on with the server started again (its handler crashes again, told alike).
    terminal.text("read it again");
    await terminal.waitFor((text) => text.includes("› read it again"), "the second question typed");
    terminal.text("\r");
    const again = await terminal.waitFor(
      (text) => text.split("heard: The call failed").length > 2,
      "the second answer",
    );
    expect(again).toMatch(new RegExp(unknown));

    // Idle first: Ctrl+D during a turn asks for a second press instead of exiting.
    await terminal.waitFor((text) => text.includes("Ctrl+D exit"), "no turn running");
    terminal.keys("C-d");
    await terminal.waitFor((text) => text.includes("EXITED 0"), "a clean exit");
    expect(await waitForNoProcesses(marker)).toEqual([]);
  }, 90_000);
});
