import { existsSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { waitFor } from "../support/poll.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { moduleRecorder } from "../support/module-recorder.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * The TUI's start and its first answer without Node's fetch (undici, about 35 ms to load): Ink's
 * layout engine read its WebAssembly through fetch("data:…") until the build gave it the
 * decoding it falls back to (scripts/ink-patches.mjs), and the model request speaks node:http.
 * A preload writes the list of Node's modules the process has loaded (module-recorder.ts).
 */
let model: ScriptedModelServer;
let dir: string;
let terminal: TmuxTerminal | undefined;

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(() => ({ text: "an answer from the model" }));
  dir = await tempDir("mcpterm-no-undici-");
});

afterEach(() => terminal?.close());

afterAll(async () => {
  await model.close();
});

describe("the interactive assistant", () => {
  it("draws, asks the model and shows its answer without loading Node's fetch", async () => {
    const recorder = await moduleRecorder(dir);
    const command = mcptermPaneCommand({
      home: dir,
      args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
      env: [`NODE_OPTIONS=${recorder.nodeOptions}`],
    });
    terminal = new TmuxTerminal(command, { cwd: dir, columns: 120, rows: 40 });
    await terminal.waitFor((screen) => screen.includes("Ctrl+D exit"), "the idle prompt");
    terminal.text("hello\r");
    await terminal.waitFor((screen) => screen.includes("an answer from the model"), "the answer");
    const { loaded } = recorder;
    // The list is written every 100 ms: wait for one that includes the request's node:http.
    await waitFor(
      () => loaded().includes("NativeModule _http_client"),
      "a module list written after the request",
    );
    expect(loaded().filter((name) => name.includes("undici"))).toEqual([]);
  });
});
