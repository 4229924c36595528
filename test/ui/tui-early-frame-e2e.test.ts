import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ANSWER_GUARD_MS } from "../../src/common/cli-io.js";
import { CLI, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";
import { ERASE_FRAME } from "../../src/ui/terminal/early-frame.js";

/**
 * The early frame (src/ui/terminal/early-frame.ts): the prompt box drawn before Ink loads, with
 * what is typed into it, taken away before Ink's first frame or a question, nothing lost or
 * drawn twice. Each pane waits for a gate file, so the recording and the keys typed ahead are in
 * place before mcpterm starts, however fast or slow the machine is.
 */
const marker = randomUUID();
let model: ScriptedModelServer;
let terminal: TmuxTerminal | undefined;

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(() => ({ text: "Hello." }));
});

afterEach(() => {
  terminal?.close();
  terminal = undefined;
});

afterAll(async () => {
  await model.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

async function gatedPane(dir: string, args: readonly string[]): Promise<{ pane: TmuxTerminal; log: string }> {
  const start = mcptermPaneCommand({
    home: dir,
    args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl, ...args],
  });
  const pane = new TmuxTerminal(`while [ ! -e gate ]; do sleep 0.05; done; ${start}`, {
    cwd: dir,
    columns: 80,
    rows: 24,
    scrollback: 100,
  });
  terminal = pane;
  const log = path.join(dir, "pane.log");
  pane.record(log);
  // Typed before mcpterm runs: the terminal echoes it (cooked mode), as it does for a person.
  pane.text("typed early");
  await pane.waitFor((screen) => /^typed early/m.test(screen), "the terminal's echo");
  await writeFile(path.join(dir, "gate"), "");
  return { pane, log };
}

/** The top borders of boxes on the screen and in the scrollback (the pane keeps 100 lines). */
const boxTops = (screen: string): number => screen.split("\n").filter((line) => line.startsWith("╭")).length;

describe("the first frame before Ink", () => {
  it("shows the prompt with the keys typed so far, then hands them to Ink with one box on screen", async () => {
    const dir = await tempDir("mcpterm-early-frame-");
    const { pane, log } = await gatedPane(dir, []);
    const screen = await pane.waitFor(
      (text) => text.includes("│ › typed early") && text.includes("Enter send"),
      "Ink's prompt holding the keys",
    );
    const written = await readFile(log, "utf8");
    const early = written.indexOf("› typed early");
    const status = written.indexOf("starting · servers connect once the prompt is ready");
    const welcome = written.indexOf("· mcpterm ");
    // The early frame came first, held the keys typed ahead, and was erased before Ink drew.
    expect(early).toBeGreaterThanOrEqual(0);
    expect(status).toBeGreaterThan(early);
    expect(welcome).toBeGreaterThan(status);
    expect(written.slice(status, welcome)).toContain(`${ERASE_FRAME}\u001b[?2004l`);
    // Bracketed paste is on while the frame is up: a paste there is one paste, not lines sent.
    expect(written.slice(0, early)).toContain("\u001b[?2004h");
    expect(written.slice(0, early)).not.toContain("· mcpterm ");
    expect(boxTops(screen)).toBe(1);
    expect(screen).not.toContain("starting ·");
    expect(screen).not.toMatch(/^typed early/m);
    // The keys are the prompt's own: more typing joins them, and Enter sends the whole line.
    pane.text(" and more");
    await pane.waitFor((text) => text.includes("› typed early and more"), "the joined draft");
    pane.text("\r");
    await pane.waitFor((text) => text.includes("Hello."), "the model's answer");
    expect(model.requests.at(-1)?.body).toMatchObject({
      messages: expect.arrayContaining([{ role: "user", content: "typed early and more" }]) as unknown,
    });
  });

  it("prints what was typed when mcpterm stops on an error before Ink took it", async () => {
    const dir = await tempDir("mcpterm-early-error-");
    await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { broken: { command: 5 } } });
    const { pane } = await gatedPane(dir, []);
    const screen = await pane.waitFor((text) => text.includes("EXITED"), "mcpterm's exit");
    expect(screen).toContain("EXITED 2");
    const lines = screen.split("\n");
    const error = lines.findIndex((line) => line.includes("must be a string, got a number"));
    const kept = lines.findIndex((line) =>
      line.includes("mcpterm: what you typed was not sent: typed early"),
    );
    expect(error).toBeGreaterThanOrEqual(0);
    expect(kept).toBeGreaterThan(error);
    expect(boxTops(screen)).toBe(0);
  });

  it("gives way to the trust question, and its prompt has the keys typed ahead again after the answer", async () => {
    const dir = await tempDir("mcpterm-early-trust-");
    await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { fixture: fixtureLaunch(marker) } });
    const { pane } = await gatedPane(dir, []);
    const question = await pane.waitFor((text) => text.includes("[y/N]"), "the trust question");
    expect(boxTops(question)).toBe(0);
    expect(question).not.toContain("starting ·");
    expect(question).not.toMatch(/^typed early/m);
    // A draft for the prompt is no answer to anything: it is set aside, not called ignored.
    expect(question).not.toContain("typed before this question was ignored");
    // A person reads the question first; the answer typed after that counts.
    // Past the guard with a margin: it starts just after the question is written, and a timer
    // counts in whole milliseconds.
    await delay(ANSWER_GUARD_MS + 100);
    pane.text("y\r");
    const prompt = await pane.waitFor(
      (text) => text.includes("│ › typed early") && text.includes("Enter send"),
      "Ink's prompt holding the draft again",
    );
    expect(prompt).toMatch(/\[y\/N\] y$/m);
    expect(boxTops(prompt)).toBe(1);
    pane.text(" and sent\r");
    await pane.waitFor((text) => text.includes("Hello."), "the model's answer");
    expect(model.requests.at(-1)?.body).toMatchObject({
      messages: expect.arrayContaining([{ role: "user", content: "typed early and sent" }]) as unknown,
    });
  });

  it("stops at once on Ctrl+C at the trust question, the draft with it", async () => {
    const dir = await tempDir("mcpterm-early-trust-stop-");
    await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { fixture: fixtureLaunch(marker) } });
    const { pane } = await gatedPane(dir, []);
    await pane.waitFor((text) => text.includes("[y/N]"), "the trust question");
    // Ctrl+C there stops mcpterm at once, as it does anywhere else, on a line of its own; the
    // person is done with the draft too, so it is not printed as unsent.
    pane.keys("C-c");
    const stopped = await pane.waitFor((text) => text.includes("EXITED"), "mcpterm's exit");
    expect(stopped).toMatch(/^EXITED 130$/m);
    expect(stopped).not.toContain("what you typed was not sent");
  });
});
