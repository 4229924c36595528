import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { ANSWER_GUARD_MS } from "../../src/common/cli-io.js";
import { CLI, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

const marker = randomUUID();
let model: ScriptedModelServer | undefined;
let terminal: TmuxTerminal | undefined;

afterAll(async () => {
  terminal?.close();
  await model?.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

describe("a config the person did not trust, in the TUI", () => {
  it("has /mcp say its servers were not started and why, not that none are configured", async () => {
    expect(existsSync(CLI), "run npm run build first").toBe(true);
    model = await startScriptedModelServer(() => ({ text: "Hello." }));
    const dir = await tempDir("mcpterm-untrusted-mcp-");
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { fixture: fixtureLaunch(marker), other: fixtureLaunch(marker) },
    });
    terminal = new TmuxTerminal(
      mcptermPaneCommand({
        home: dir,
        args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
      }),
      { cwd: dir, columns: 120, rows: 30 },
    );
    await terminal.waitFor((screen) => screen.includes("Trust this config? [y/N]"), "the trust question");
    await delay(ANSWER_GUARD_MS + 100);
    terminal.text("n\r");
    await terminal.waitFor((screen) => screen.includes("not trusted"), "the TUI without its servers");
    terminal.text("/mcp\r");
    const status = await terminal.waitFor((screen) => screen.includes("were not started"), "/mcp");
    // Wrapped where the screen ends, wherever the config's path makes that.
    const said = status.replace(/\s+/g, " ");
    expect(said).toMatch(
      /The 2 servers of \S+mcp\.config\.json \(fixture, other\) were not started: the config/,
    );
    expect(said).toContain(
      "is not trusted. Restart mcpterm to be asked again, or start it with --trust-config.",
    );
    expect(status).not.toContain("No MCP servers are configured");
    terminal.text("/mcp restart fixture\r");
    const restart = await terminal.waitFor((screen) => screen.includes("running."), "/mcp restart");
    expect(restart).toContain('There is no server named "fixture" running.');
  }, 60_000);
});
