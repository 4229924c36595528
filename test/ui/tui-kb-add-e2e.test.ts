import { mkdir, readdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPROVAL_GUARD_MS } from "../../src/ui/keys/approval-guard.js";
import { CLI, tempDir } from "../support/fixtures.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * `/kb add <url>` in the real binary in a pseudo-terminal: the fetch is an external call, asked
 * in the approval panel under its guard. 127.0.0.1: nothing listens there for this, and the
 * address guard refuses it once allowed, which is how a yes shows that the fetch was tried.
 */
const URL = "http://127.0.0.1:9/runbook.html";
let model: ScriptedModelServer;
let terminal: TmuxTerminal;
let kbDir: string;

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer((request) => {
    const messages =
      (request.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
    const last = messages.filter((message) => message.role === "user").at(-1)?.content;
    return typeof last === "string" && last.startsWith("think")
      ? { afterMs: 2500, text: "thought it over" }
      : { text: "ok" };
  });
  const dir = await tempDir("mcpterm-tui-kb-add-");
  kbDir = path.join(dir, "knowledge_base");
  await mkdir(kbDir);
  terminal = new TmuxTerminal(
    mcptermPaneCommand({ home: dir, args: ["--model", "scripted", "--base-url", model.baseUrl] }),
    { cwd: dir, columns: 120, rows: 40 },
  );
  await terminal.waitFor((text) => /│ › /.test(text), "the prompt");
});

afterAll(async () => {
  terminal.close();
  await model.close();
});

const pastGuard = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, APPROVAL_GUARD_MS + 300));
const panelShown = (text: string): boolean => text.includes("Allow this call?");
/** The screen with its line breaks and padding as single spaces: results wrap at the width. */
const flat = (text: string): string => text.replace(/[\s│]+/g, " ");

async function askToAdd(): Promise<string> {
  terminal.text(`/kb add ${URL}`);
  await terminal.waitFor((text) => text.includes(`› /kb add ${URL}`), "the command typed");
  terminal.keys("Enter");
  return terminal.waitFor(panelShown, "the approval panel");
}

describe("/kb add <url> in the TUI", () => {
  it("asks in the approval panel, showing the domain on its own line", async () => {
    const panel = await askToAdd();
    expect(panel).toMatch(/Allow this call\? \[external\] \/kb add #\d+/);
    expect(panel).toMatch(/^│ +"domain": "127\.0\.0\.1:9",? *│$/m);
    expect(panel).toContain(`"url": "${URL}"`);
    expect(panel).toContain("Asked because external calls need a person's yes.");
  });

  it("takes nothing typed as the panel appears for an answer, and n declines once the guard passed", async () => {
    // Typed at once: shortcut letters among them go to the prompt, not to the panel.
    terminal.text("yes all");
    const typed = await terminal.waitFor((text) => text.includes("› yes all"), "the typing in the prompt");
    expect(panelShown(typed)).toBe(true);
    terminal.keys("C-u");
    await terminal.waitFor((text) => !text.includes("› yes all"), "the prompt cleared");
    await pastGuard();
    terminal.text("n");
    const declined = await terminal.waitFor((text) => text.includes("Not fetched"), "the decline");
    expect(flat(declined)).toContain(
      `Not fetched (the user denied it): ${URL}. /kb add --yes ${URL} fetches it without asking.`,
    );
    expect(panelShown(declined)).toBe(false);
    expect(await readdir(kbDir)).toEqual([]);
  });

  it("declines on Esc", async () => {
    await askToAdd();
    await pastGuard();
    terminal.keys("Escape");
    await terminal.waitFor(
      (text) =>
        (flat(text).match(/Not fetched \(the user denied it\)/g) ?? []).length === 2 && !panelShown(text),
      "the second decline",
    );
  });

  it("keeps its panel up when a model turn ends while it waits, and still takes the answer", async () => {
    terminal.text("think about it");
    terminal.keys("Enter");
    await terminal.waitFor(
      (text) => text.includes("› think about it") || text.includes("think about it"),
      "the turn",
    );
    const panel = await askToAdd();
    expect(panel).not.toContain("thought it over");
    const ended = await terminal.waitFor((text) => text.includes("thought it over"), "the turn's end");
    expect(panelShown(ended)).toBe(true);
    await pastGuard();
    terminal.text("n");
    await terminal.waitFor(
      (text) =>
        (flat(text).match(/Not fetched \(the user denied it\)/g) ?? []).length === 3 && !panelShown(text),
      "the third decline",
    );
  });

  it("fetches on y once the guard passed, and with --yes without asking", async () => {
    await askToAdd();
    await pastGuard();
    terminal.text("y");
    const fetched = await terminal.waitFor(
      (text) => flat(text).includes("which kb add never fetches"),
      "the fetch",
    );
    expect(panelShown(fetched)).toBe(false);

    terminal.text(`/kb add --yes ${URL}`);
    await terminal.waitFor((text) => text.includes(`› /kb add --yes ${URL}`), "the command typed");
    terminal.keys("Enter");
    await terminal.waitFor(
      (text) => (flat(text).match(/which kb add never fetches/g) ?? []).length === 2,
      "the second fetch",
    );
    expect(panelShown(terminal.screen())).toBe(false);
    expect(await readdir(kbDir)).toEqual([]);
  });
});
