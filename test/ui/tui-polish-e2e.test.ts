import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { displayWidth } from "../../src/core/text/index.js";
import { CLI, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * Small things a person reads, in the real binary in tmux against the fixture server: each test
 * starts its own pane and says what the screen showed before it was fixed.
 */
const marker = randomUUID();
const CTRL_O = "\u000f";
let model: ScriptedModelServer;
let dir: string;
let terminal: TmuxTerminal | undefined;

/** The model calls the fixture tool a message names (`call big {"chars":600}`), then answers. */
function reply(request: RecordedRequest): ScriptedReply {
  const messages = (request.body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const last = messages.at(-1);
  if (last?.role === "tool") return { text: "Done." };
  const asked = /^call (\w+) (.*)$/.exec(typeof last?.content === "string" ? last.content : "");
  if (asked) return { toolCalls: [{ name: `fixture__${asked[1] ?? ""}`, arguments: asked[2] ?? "{}" }] };
  if (last?.content === "wait") return { hang: true };
  return { text: "Hello." };
}

async function start(columns: number, options: { rows?: number; kb?: boolean } = {}): Promise<TmuxTerminal> {
  const { rows = 50, kb = false } = options;
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--trust-config", ...(kb ? [] : ["--no-kb"]), "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns, rows });
  await terminal.waitFor((screen) => /1\/1 (servers ready|srv)/.test(screen), "the server");
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
  model = await startScriptedModelServer(reply);
  dir = await tempDir("mcpterm-tui-polish-");
  await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { fixture: fixtureLaunch(marker) } });
  await mkdir(path.join(dir, "knowledge_base"));
  await writeFile(
    path.join(dir, "knowledge_base", "deploy.md"),
    "# Deploy\n\nTo roll back, run deploy rollback.\n",
  );
  await writeFile(
    path.join(dir, "knowledge_base", "env.md"),
    "# Environment\n\nCall get-env to read one variable of the env; call it again for another.\n",
  );
  await writeFile(path.join(dir, "three.txt"), "one\ntwo\nthree\n");
  // A document of three sections, each long enough to be a passage of its own.
  const section = (name: string): string => `# ${name}\n\n${`The ${name} runbook step. `.repeat(40)}\n`;
  await writeFile(path.join(dir, "runbook.md"), ["Backup", "Restore", "Rotate"].map(section).join("\n"));
});

afterEach(() => terminal?.close());

afterAll(async () => {
  await model.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

describe("the TUI's small print", () => {
  it("wraps a long line in the inspector by words, each continued row marked", async () => {
    const pane = await start(60);
    await send(pane, 'call big {"chars":400,"fill":"word "}');
    await pane.waitFor((screen) => screen.includes("Done."), "the answer");
    pane.text(CTRL_O);
    await pane.waitFor((screen) => screen.includes("Inspecting"), "the inspector");
    const rows = pane
      .rows()
      .split("\n")
      .map((row) => row.replace(/^│ /, "").replace(/ *│$/, ""));
    const result = rows.slice(rows.findIndex((row) => row.startsWith("result")) + 1);
    const shown = result.slice(
      0,
      result.findIndex((row) => row.startsWith("lines ")),
    );
    // Before: the line was cut at the box edge mid-word ("word w", "ord word"), nothing marked.
    expect(shown.length).toBeGreaterThan(3);
    expect(shown[0]).toMatch(/^word( word)*$/);
    for (const row of shown.slice(1)) expect(row).toMatch(/^↪ word( word)*$/);
  }, 60_000);

  it("shows when the index was updated in local time, and its new size after /kb add", async () => {
    const pane = await start(100, { kb: true });
    const size = (screen: string): number => Number(/kb (\d+) chunks?\b/.exec(screen)?.[1] ?? "0");
    const before = size(await pane.waitFor((screen) => size(screen) > 0, "the index"));
    await send(pane, "/kb");
    const table = await pane.waitFor((screen) => screen.includes("index size"), "the /kb table");
    // The index's time as the person's local minute; before, a raw ISO timestamp (…T03:17:56.110Z).
    expect(table).toMatch(/ \d{4}-\d\d-\d\d \d\d:\d\d\s*$/m);
    expect(table).not.toMatch(/\d\dT\d\d:\d\d/);
    await send(pane, "/kb add runbook.md");
    await pane.waitFor((screen) => screen.includes("Added"), "the document added");
    // Before: the status line kept the size it read at start-up until mcpterm was restarted.
    await pane.waitFor((screen) => size(screen) > before, "the new size in the status line");
  }, 60_000);

  it("erases keys typed during start-up before printing under them (--resume with nothing to resume)", async () => {
    const folder = await tempDir("mcpterm-tui-early-");
    const start = mcptermPaneCommand({
      home: folder,
      args: ["--resume", "--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
    });
    // mcpterm runs only once the gate exists, so the keys are typed (and echoed) before it starts.
    terminal = new TmuxTerminal(`while [ ! -e gate ]; do sleep 0.05; done; ${start}`, {
      cwd: folder,
      columns: 80,
      rows: 20,
    });
    const pane = terminal;
    pane.text("typed early");
    await pane.waitFor((screen) => /^typed early/m.test(screen), "the terminal's echo");
    await writeFile(path.join(folder, "gate"), "");
    const shown = await pane.waitFor(
      // The early frame holds the keys first; the notice comes with the TUI.
      (screen) => screen.includes("│ › typed early") && screen.includes("No saved session"),
      "the keys in the TUI's prompt",
    );
    expect(shown).toContain("No saved session in this folder to resume; starting a new one.");
    // Before: "typed earlyNo saved session…" stayed above the prompt.
    expect(shown).not.toMatch(/^typed early/m);
  }, 60_000);

  it("wraps the trust question's command lines by words, not where the terminal's edge falls", async () => {
    const folder = await tempDir("mcpterm-tui-trust-");
    const word = "zyxwvutsrq";
    await writeJson(path.join(folder, "mcp.config.json"), {
      mcpServers: { wide: { command: "node", args: [word, word, word, word] } },
    });
    const command = mcptermPaneCommand({
      home: folder,
      args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
    });
    terminal = new TmuxTerminal(command, { cwd: folder, columns: 36, rows: 20 });
    const question = await terminal.waitFor((screen) => screen.includes("[y/N]"), "the trust question");
    expect(question).toContain(`  wide: node ${word} ${word}\n    ${word} ${word}`);
    // Before: the terminal broke the line at its edge, "…zyxwvutsrq z" over "yxwvutsrq zyxwvutsrq".
    expect(question.split(word).length - 1).toBe(4);
  }, 60_000);

  it("names only the words a passage was found for: not a common word such as call", async () => {
    const pane = await start(120, { kb: true });
    await pane.waitFor((screen) => /kb \d+ chunks?\b/.test(screen), "the index");
    await send(pane, "CALL get-env {}");
    const shown = await pane.waitFor((screen) => screen.includes("Knowledge (1)"), "the passage found");
    expect(shown).toMatch(/env\.md:\d+-\d+ \S+ \d+% · matched env\b/);
    // Before: "matched CALL, env", though "call" weighs nothing in the relevance.
    expect(shown).not.toContain("matched CALL");
  }, 60_000);

  it("keeps Tab with what it does in the idle hint of a 100-column window", async () => {
    const pane = await start(100);
    const hint = (await pane.waitFor((screen) => screen.includes("Enter send"), "the hint"))
      .split("\n")
      .find((line) => line.startsWith("Enter send"));
    // Before: "… · ↑ history · Tab · ^O panels · ^G editor".
    expect(hint).toContain("· Tab complete");
  }, 60_000);

  it("counts lines as an editor does: a final line break starts no line, and one line is one line", async () => {
    const pane = await start(120);
    await send(pane, 'call echo {"text":"one\\ntwo\\nthree\\n"}');
    // Before: "(+3 lines)" for three lines that end in a line break.
    await pane.waitFor((screen) => screen.includes("⎿ one (+2 lines)"), "the three-line result");
    await send(pane, 'call echo {"text":"first\\nsecond"}');
    // Before: "(+1 lines)".
    await pane.waitFor((screen) => screen.includes("⎿ first (+1 line)"), "the two-line result");
    await send(pane, "@three.txt what is in it?");
    // Before: "15 B, 4 lines".
    await pane.waitFor((screen) => screen.includes("⎘ @three.txt · 14 B, 3 lines"), "the attached file");
    await send(pane, "/mcp logs fixture");
    // Before: "stderr (1 lines)".
    await pane.waitFor((screen) => /stderr \(1 line\)/.test(screen), "the server's one stderr line");
  }, 60_000);

  it("marks in /mcp logs where a restarted server's new process begins", async () => {
    const pane = await start(120);
    await send(pane, "/mcp restart fixture");
    await pane.waitFor((screen) => screen.includes(`Restarted "fixture": connected`), "the restart");
    await send(pane, "/mcp logs fixture");
    const logs = await pane.waitFor((screen) => screen.includes("logging notifications"), "the logs");
    const stderr = logs.slice(logs.indexOf('Logs of "fixture"'), logs.indexOf("stdout lines"));
    // Before: only the new process's lines, and nothing said there had been another.
    expect(stderr).toMatch(
      /fixture: ready[^]*── restarted at \d\d:\d\d:\d\d; the new process's lines follow ──[^]*fixture: ready/,
    );
    expect(logs).toContain("mcpterm: restarted; the new process's messages follow");
  }, 60_000);

  it("summarizes a call's arguments up to the window's edge, not 60 columns", async () => {
    const pane = await start(120);
    // Short enough to type on one line of the prompt, long enough to reach past the edge.
    const text = "word ".repeat(18).trim();
    await send(pane, `call echo {"text":"${text}"}`);
    const shown = await pane.waitFor((screen) => screen.includes("Done."), "the call");
    const header = shown.split("\n").find((line) => line.includes("fixture/echo #")) ?? "";
    // Before: cut some thirty columns short of the edge.
    expect(header).toMatch(/word…$/);
    expect(displayWidth(header)).toBeGreaterThanOrEqual(117);
  }, 60_000);

  it("counts an interrupted turn's tokens in the status line", async () => {
    const pane = await start(120);
    await pane.waitFor((screen) => / 0 tokens\b/.test(screen), "no tokens yet");
    await send(pane, "wait");
    await pane.waitFor((screen) => /Esc (or Ctrl\+C )?cancel/.test(screen), "the turn under way");
    pane.text("\u001b");
    const shown = await pane.waitFor((screen) => screen.includes("Interrupted"), "the interruption");
    // Before: the cut-off request counted nothing, and the status line still read "0 tokens".
    await pane.waitFor(
      (screen) => /\b[1-9][\d,.]*k? tokens\b/.test(screen),
      `a count above zero in\n${shown}`,
    );
  }, 60_000);

  it("says in /stats, once and plainly, that the context window is mcpterm's default", async () => {
    const pane = await start(160);
    await send(pane, "/stats");
    const stats = await pane.waitFor(
      (screen) => screen.includes("Model scripted: context window"),
      "the stats",
    );
    // Before: "(from the default (the endpoint does not report it; set model.contextWindow))".
    // ", remembered" when an earlier test's run in this HOME cached the endpoint's answer.
    expect(stats).toMatch(
      /context window 32,768 tokens, mcpterm's default, as the endpoint does not report it \(set model\.contextWindow\)(, remembered)?\./,
    );
  }, 60_000);

  it("says what mcpterm knows: the command meant, and why a server does not sign in", async () => {
    const pane = await start(160);
    await send(pane, "/modle");
    // Before: "Unknown command /modle; type /help for the list."
    await pane.waitFor(
      (screen) => screen.includes("✗ Unknown command /modle; did you mean /model?"),
      "the guess",
    );
    await send(pane, "/mcp login fixture");
    // Before: three reasons it might be ("a local (stdio) server, … "oauth": false, or … its own Authorization header").
    const refused = await pane.waitFor(
      (screen) => screen.includes('✗ Server "fixture" is a local (stdio)'),
      "the reason",
    );
    expect(refused).not.toContain("Authorization header");
  }, 60_000);
});
