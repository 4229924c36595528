import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { CLI, replaceFile, tempDir, writeJson } from "../support/fixtures.js";
import { waitForFileText } from "../support/poll.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { waitForNoProcesses } from "../support/process-table.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * The real binary in a pseudo-terminal with a 2026-only and a 2025-only server: a person
 * subscribes to a resource with /resources subscribe, goes on typing, and the update appears on
 * screen without touching what they typed; a 2026 server's list change (announced on its listen
 * stream) reaches /tools. Keys go in as raw terminal bytes.
 */
const marker = randomUUID();
let model: ScriptedModelServer;
let terminal: TmuxTerminal;
let dir: string;

function reply(request: RecordedRequest): ScriptedReply {
  const messages = (request.body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const last = messages.at(-1);
  if (last?.role === "tool") return { text: "The tool was added." };
  return { toolCalls: [{ name: "modern__add_tool", arguments: JSON.stringify({ name: "fresh_tool" }) }] };
}

const statusFile = (server: string): string => path.join(dir, `${server}-status.txt`);

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(reply);
  dir = await tempDir("mcpterm-tui-subs-");
  const fixture = (name: "modern-server" | "legacy-server", server: string) => ({
    command: process.execPath,
    args: [compiledFixture(name), `--marker=${marker}`],
    env: { FIXTURE_STATUS_FILE: statusFile(server) },
    tiers: { add_tool: "read_only" },
  });
  for (const server of ["modern", "legacy"]) await writeFile(statusFile(server), "initial");
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { modern: fixture("modern-server", "modern"), legacy: fixture("legacy-server", "legacy") },
  });
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--trust-config", "--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 140, rows: 50 });
  await terminal.waitFor((screen) => screen.includes("2/2 servers ready"), "the servers");
}, 60_000);

afterAll(async () => {
  terminal.close();
  await model.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

describe("subscriptions in the TUI", () => {
  it.each(["modern", "legacy"])(
    "%s: an update to a subscribed resource shows while the person types something else",
    async (server) => {
      terminal.text(`/resources subscribe ${server} note://status\r`);
      await terminal.waitFor(
        (screen) => screen.includes(`Subscribed to note://status on ${server}`),
        "the subscription",
      );
      const typing = `half a thought for ${server}`;
      terminal.text(typing);
      await terminal.waitFor((screen) => screen.includes(`› ${typing}`), "the typed text");
      await replaceFile(statusFile(server), `${server} has news`);
      const screen = await terminal.waitFor(
        (text) => text.includes(`${server}: note://status changed: "${server} has news"`),
        "the update notice",
      );
      expect(screen).toContain(`› ${typing}`);
      // Erased with Backspace bytes, in one write: the prompt is the person's again.
      terminal.text("\x7f".repeat(typing.length));
      await terminal.waitFor((text) => !text.includes(`› ${typing}`), "the prompt cleared");
    },
    90_000,
  );

  it("a 2026 server's list change, announced on its listen stream, reaches /tools", async () => {
    terminal.text("add a tool please\r");
    await terminal.waitFor((screen) => screen.includes("The tool was added."), "the turn");
    terminal.text("/tools modern\r");
    // The table's row, not the call's arguments ("fresh_tool" quoted) or its result ("added fresh_tool").
    const listed = (screen: string): boolean =>
      screen.split("\n").some((line) => /^\s*modern\s.*\sfresh_tool\s/.test(line));
    await terminal.waitFor(listed, "the new tool in /tools");
  }, 90_000);

  it("the trace records each subscription: opened with what the server honoured, the updates", async () => {
    const traces = path.join(dir, ".mcpterm", "traces");
    const file = path.join(traces, (await readdir(traces)).find((name) => name.endsWith(".jsonl")) ?? "");
    await waitForFileText(file, '"kind":"updated","server":"legacy"');
    const seen = (await readFile(file, "utf8"))
      .split("\n")
      .filter((line) => line.includes('"type":"subscription"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(seen).toContainEqual(
      expect.objectContaining({
        kind: "opened",
        server: "modern",
        subject: "note://status",
        honored: { resourceSubscriptions: ["note://status"] },
      }),
    );
    expect(seen).toContainEqual(expect.objectContaining({ kind: "opened", server: "legacy", era: "legacy" }));
    expect(seen).toContainEqual(
      expect.objectContaining({ kind: "updated", server: "legacy", uri: "note://status" }),
    );
    const shown = await runCli(["trace", file], { cwd: dir, env: cleanEnv() });
    expect(shown.stdout).toContain("modern: subscribed to note://status (modern, honoured");
    expect(shown.stdout).toContain("legacy: note://status updated");
  }, 60_000);
});
