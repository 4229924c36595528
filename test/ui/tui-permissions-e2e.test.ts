import { existsSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { APPROVAL_GUARD_MS } from "../../src/ui/keys/approval-guard.js";
import { CLI, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
} from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * Permissions that last, in the real binary: "Always allow … in this project" from the approval
 * panel (the p key), kept in the user's settings (never the project's files), honoured by a later
 * run — one-shot too — listed and revoked with /permissions.
 */
let model: ScriptedModelServer;
let dir: string;
let settings: string;
let terminal: TmuxTerminal | undefined;

function reply(request: RecordedRequest) {
  const messages = (request.body as { messages: Array<{ role: string; content: string | null }> }).messages;
  const last = messages.at(-1);
  if (last?.role === "tool") return { text: "Wrote it." };
  return {
    toolCalls: [{ name: "fixture__write_note", arguments: JSON.stringify({ name: "n.md", text: "hello" }) }],
  };
}

function start(): TmuxTerminal {
  const command = mcptermPaneCommand({
    home: dir,
    env: [`MCPTERM_SETTINGS_DIR=${settings}`],
    args: ["--no-kb", "--trust-config", "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 120, rows: 40 });
  return terminal;
}

async function type(pane: TmuxTerminal, text: string): Promise<void> {
  pane.text(text);
  await pane.waitFor((screen) => screen.includes(`› ${text}`), `"${text}" typed`);
  pane.text("\r");
}

/** A one-shot run of the same request in the same project, asking nobody. */
function oneShot() {
  return runCli(["--no-kb", "--trust-config", "--output", "json", "-p", "write the note"], {
    cwd: dir,
    env: cleanEnv({
      OPENAI_BASE_URL: model.baseUrl,
      MCPTERM_MODEL: "scripted",
      MCPTERM_SETTINGS_DIR: settings,
    }),
  });
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(reply);
  dir = await tempDir("mcpterm-tui-permissions-");
  settings = path.join(dir, "user-settings");
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { fixture: { ...fixtureLaunch("tui-permissions"), env: { FIXTURE_NOTES_DIR: dir } } },
  });
});

afterEach(() => terminal?.close());

afterAll(async () => {
  await model.close();
});

describe("permissions that last", () => {
  it("p saves the allowance for the project; a later run, one-shot too, is not asked; /permissions revokes it", async () => {
    const pane = start();
    await pane.waitFor((screen) => screen.includes("1/1 servers ready"), "the server");
    await type(pane, "write the note");
    const panel = await pane.waitFor((screen) => screen.includes("Allow this call?"), "the panel");
    expect(panel).toMatch(
      /5\. Always allow fixture\/write_note in this project \(saved in your settings\) \(p\)/,
    );
    await delay(APPROVAL_GUARD_MS + 200);
    pane.text("p");
    await pane.waitFor((screen) => screen.includes("Wrote it."), "the answer");
    await type(pane, "/permissions");
    const listed = await pane.waitFor((screen) => screen.includes("Always allowed"), "the list");
    expect(listed).toMatch(/1\s+this project \(saved\)\s+fixture\s+write_note\s+dangerous/);
    // Idle first: Ctrl+D during a turn asks for a second press instead of exiting.
    await pane.waitFor((screen) => screen.includes("Ctrl+D exit"), "no turn running");
    pane.keys("C-d");
    await pane.waitFor((screen) => screen.includes("EXITED 0"), "the exit");

    // Saved in the user's settings, not the project's files; honoured by a run that asks nobody.
    const allowed = await oneShot();
    expect(allowed.code, allowed.stderr).toBe(0);
    const [call] = (JSON.parse(allowed.stdout) as { toolCalls: Array<{ approvedBy: string }> }).toolCalls;
    expect(call?.approvedBy).toBe("settings");

    const again = start();
    await again.waitFor((screen) => screen.includes("1/1 servers ready"), "the server");
    await type(again, "/permissions revoke 1");
    await again.waitFor((screen) => screen.includes("Revoked: fixture/write_note"), "the revoke");
    const denied = await oneShot();
    expect(denied.code).toBe(3);
  }, 90_000);

  it("a saved allowance does not pass to another program the config later runs under the server's name", async () => {
    const config = path.join(dir, "mcp.config.json");
    const pane = start();
    await pane.waitFor((screen) => screen.includes("1/1 servers ready"), "the server");
    await type(pane, "write the note");
    await pane.waitFor((screen) => screen.includes("Allow this call?"), "the panel");
    await delay(APPROVAL_GUARD_MS + 200);
    pane.text("p");
    await pane.waitFor((screen) => screen.includes("Wrote it."), "the answer");
    await pane.waitFor((screen) => screen.includes("Ctrl+D exit"), "no turn running");
    pane.keys("C-d");
    await pane.waitFor((screen) => screen.includes("EXITED 0"), "the exit");
    expect((await oneShot()).code).toBe(0);

    // A pulled change: "fixture" now runs with another environment (it could be another
    // program copying the tool), and the config is trusted again (--trust-config).
    const launch = fixtureLaunch("tui-permissions");
    await writeJson(config, {
      mcpServers: { fixture: { ...launch, env: { FIXTURE_NOTES_DIR: dir, NODE_OPTIONS: "--no-warnings" } } },
    });
    const denied = await oneShot();
    expect(denied.code).toBe(3);
    // Said with the run's other warnings, in its JSON.
    expect(denied.stdout).toMatch(
      /fixture\/write_note was allowed when server \\"fixture\\" ran another program or reached another URL/,
    );
    // The allowance is gone, not waiting for the old program to come back.
    await writeJson(config, { mcpServers: { fixture: { ...launch, env: { FIXTURE_NOTES_DIR: dir } } } });
    expect((await oneShot()).code).toBe(3);
  }, 90_000);
});
