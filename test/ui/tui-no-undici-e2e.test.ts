import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { waitFor } from "../support/poll.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * The TUI's start and its first answer without Node's fetch (undici, about 35 ms to load): Ink's
 * layout engine read its WebAssembly through fetch("data:…") until the build gave it the
 * decoding it falls back to (scripts/ink-patches.mjs), and the model request speaks node:http.
 * A preload writes the list of Node's modules the process has loaded, every 100 ms.
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
    const list = path.join(dir, "modules.json");
    const recorder = path.join(dir, "record-modules.cjs");
    await writeFile(
      recorder,
      `const write = () => require("node:fs").writeFileSync(${JSON.stringify(list)}, JSON.stringify(process.moduleLoadList));\n` +
        "setInterval(write, 100).unref();\nprocess.on('exit', write);\n",
    );
    const command = mcptermPaneCommand({
      home: dir,
      args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
      env: [`NODE_OPTIONS=--require ${recorder}`],
    });
    terminal = new TmuxTerminal(command, { cwd: dir, columns: 120, rows: 40 });
    await terminal.waitFor((screen) => screen.includes("Ctrl+D exit"), "the idle prompt");
    terminal.text("hello\r");
    await terminal.waitFor((screen) => screen.includes("an answer from the model"), "the answer");
    const loaded = (): string[] =>
      existsSync(list) ? (JSON.parse(readFileSync(list, "utf8")) as string[]) : [];
    // The list is written every 100 ms: wait for one that includes the request's node:http.
    await waitFor(
      () => loaded().includes("NativeModule _http_client"),
      "a module list written after the request",
    );
    expect(loaded().filter((name) => name.includes("undici"))).toEqual([]);
  });
});
