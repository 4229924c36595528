import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ANSWER_GUARD_MS } from "../../src/common/cli-io.js";
import { CLI, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * `mcpterm --resume` in a project whose config is not trusted yet asks two questions before the
 * TUI draws, one after the other: which session, then whether to trust the config. The second
 * must be read as the first was (it was left unread once: the process ended waiting, exit 13).
 */
const marker = randomUUID();
let model: ScriptedModelServer | undefined;
let terminal: TmuxTerminal | undefined;

afterEach(() => {
  terminal?.close();
  terminal = undefined;
});

afterAll(async () => {
  await model?.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

/**
 * A project whose config is not trusted in this home, with one session saved (by a `-p` run
 * trusted by its flag), and `mcpterm --resume` in a pane, showing its picker.
 */
async function pickerPane(): Promise<TmuxTerminal> {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model ??= await startScriptedModelServer(() => ({ text: "Hello." }));
  const dir = await tempDir("mcpterm-resume-trust-");
  await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { fixture: fixtureLaunch(marker) } });
  const env = cleanEnv({ OPENAI_BASE_URL: model.baseUrl, MCPTERM_MODEL: "scripted" });
  const first = await runCli(["--no-kb", "--trust-config", "-p", "the saved question"], { cwd: dir, env });
  expect(first.code, first.stderr).toBe(0);
  terminal = new TmuxTerminal(
    mcptermPaneCommand({
      home: dir,
      args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl, "--resume"],
    }),
    { cwd: dir, columns: 100, rows: 30 },
  );
  await terminal.waitFor((screen) => screen.includes("Resume which?"), "the picker");
  return terminal;
}

describe("--resume with a config not trusted yet", () => {
  it("asks which session, then whether to trust the config, and opens the session with its servers", async () => {
    const pane = await pickerPane();
    // Answers count once the guard after each question is past.
    await delay(ANSWER_GUARD_MS + 100);
    pane.text("1\r");
    await pane.waitFor((screen) => screen.includes("Trust this config? [y/N]"), "the trust question");
    await delay(ANSWER_GUARD_MS + 100);
    pane.text("y\r");
    const resumed = await pane.waitFor(
      (screen) => screen.includes("› the saved question") && screen.includes("1/1 servers ready"),
      "the resumed session with its server",
    );
    expect(resumed).not.toContain("what you typed was not sent");
    expect(resumed).not.toContain("EXITED");
  });

  it("stops at once on Ctrl+C at the picker, asking nothing more", async () => {
    const pane = await pickerPane();
    pane.keys("C-c");
    const stopped = await pane.waitFor((screen) => screen.includes("EXITED"), "mcpterm's exit");
    expect(stopped).toMatch(/^EXITED 130$/m);
    expect(stopped).not.toContain("Starting a new session");
    expect(stopped).not.toContain("Trust this config");
  });
});
