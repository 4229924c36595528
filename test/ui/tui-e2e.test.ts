import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWER_GUARD_MS } from "../../src/common/cli-io.js";
import { CLI, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { mcptermPaneCommand } from "../support/tmux.js";
import { waitForNoProcesses } from "../support/process-table.js";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";

/**
 * The real binary in a real pseudo-terminal (tmux), against the scripted model server and real
 * fixture MCP servers: what a person sees and types, end to end.
 */
const TMUX = "tmux";
const socket = `mcpterm-e2e-${randomUUID().slice(0, 8)}`;
const session = "tui";
const marker = randomUUID();
let model: ScriptedModelServer;
let dir: string;
let notes: string;
/** The slow server answers nothing until this file exists. */
let slowGate: string;

function tmux(...args: string[]): string {
  return execFileSync(TMUX, ["-L", socket, ...args], { encoding: "utf8" });
}

function screen(): string {
  return tmux("capture-pane", "-p", "-J", "-t", session);
}

function keys(...sequence: string[]): void {
  tmux("send-keys", "-t", session, ...sequence);
}

/**
 * Types text and presses Enter once the text shows, as a person would: Enter never arrives in the
 * same read as the text, however slow the machine (in one read it could count as pasted).
 */
async function type(text: string, shown = (screen: string) => screen.includes(`› ${text}`)): Promise<void> {
  tmux("send-keys", "-t", session, "-l", text);
  await waitForScreen(shown, `"${text}" to show`);
  keys("Enter");
}

/**
 * Lines of the prompt box's first row (not the focused choice of an approval, "│ › 1. Deny"):
 * more than one on screen is a ghost left by a resize.
 */
function promptRows(text: string): number {
  return text.split("\n").filter((line) => line.startsWith("│ › ") && !/^│ › \d\. /.test(line)).length;
}

/** The prompt box drawn `columns` wide, and no ghost of an earlier one. */
function promptBoxAt(columns: number): (text: string) => boolean {
  const top = new RegExp(String.raw`^╭─{${columns - 2}}╮$`, "m");
  return (text) => top.test(text) && promptRows(text) === 1;
}

function resize(columns: number): void {
  tmux("resize-window", "-t", session, "-x", String(columns), "-y", "40");
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls the screen until `check` passes, failing with the last screen after `ms` (generous: a loaded machine is slow). */
async function waitForScreen(check: (text: string) => boolean, what: string, ms = 30_000): Promise<string> {
  const deadline = Date.now() + ms;
  let text = screen();
  while (!check(text)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen was:\n${text}`);
    await pause(100);
    text = screen();
  }
  return text;
}

function reply(request: { body: { messages: Array<{ role: string; content: unknown }> } }): ScriptedReply {
  const last = request.body.messages.at(-1);
  const content = typeof last?.content === "string" ? last.content : "";
  if (last?.role === "tool")
    return { text: content.includes("denied") ? "Understood, not written." : "Wrote it." };
  const write = (name: string): ScriptedReply => ({
    toolCalls: [{ name: "fixture__write_note", arguments: JSON.stringify({ name, text: "from the model" }) }],
  });
  if (content.startsWith("write again")) return write("ok.md");
  // A turn that stays running (two chunks, then nothing) until the person cancels it.
  if (content.startsWith("stall")) return { stallAfterChunks: 2, text: "Partial answer, then nothing" };
  if (content.startsWith("write a note")) return write("denied.md");
  return { text: "Hello **there**, streaming text about rollback [1].", chunkSize: 3 };
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer((request) => reply(request));
  dir = await tempDir("mcpterm-tui-");
  notes = path.join(dir, "notes");
  slowGate = path.join(dir, "slow-server-may-start");
  await mkdir(notes);
  await mkdir(path.join(dir, "knowledge_base"));
  await writeFile(
    path.join(dir, "knowledge_base", "deploy.md"),
    "# Deploy\n\nTo rollback, run deploy rollback.\n",
  );
  const fixture = fixtureLaunch(marker);
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      fixture: { ...fixture, env: { FIXTURE_NOTES_DIR: notes } },
      slow: { ...fixture, env: { FIXTURE_STARTUP_GATE: slowGate } },
    },
  });
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--model", "scripted", "--base-url", model.baseUrl],
  });
  tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", "-c", dir, command);
});

afterAll(async () => {
  try {
    tmux("kill-server");
  } catch {
    // Already gone.
  }
  await model.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

describe("mcpterm TUI in a pseudo-terminal", () => {
  it("asks once whether the project's config may start its servers, showing each command line", async () => {
    // A "y" and Enter typed while mcpterm starts, before the question shows: nobody read it yet,
    // so it is ignored, however fast or slow the machine is.
    tmux("send-keys", "-t", session, "-l", "y");
    keys("Enter");
    const question = await waitForScreen((text) => text.includes("[y/N]"), "the trust question");
    expect(question).toMatch(/mcp\.config\.json wants to start or connect to 2 servers:/);
    // A line wider than the window goes on in rows indented under it: joined, each is whole.
    const lines = question.replace(/\n {4}(?!⚠)/g, " ");
    expect(lines).toMatch(/^ {2}fixture: \S+ \S+fixture-server\.js\b/m);
    expect(lines).toMatch(/^ {2}slow: \S+ \S+fixture-server\.js\b/m);
    await waitForScreen((text) => text.includes("typed before this question was ignored"), "the note");
    // A person reads the question first; the answer typed after that counts.
    // Past the guard with a margin: it starts just after the question is written, and a timer
    // counts in whole milliseconds.
    await delay(ANSWER_GUARD_MS + 100);
    await type("y", (text) => /answer now\)\s*y\s*$/m.test(text));
    await waitForScreen((text) => text.includes("servers ready"), "the prompt after the answer");
    const settings = JSON.parse(
      await readFile(path.join(dir, ".config", "mcpterm", "settings.json"), "utf8"),
    ) as {
      trustedConfigs: Record<string, string>;
    };
    expect(Object.keys(settings.trustedConfigs)).toEqual([path.join(dir, "mcp.config.json")]);
  });

  it("draws the prompt before a slow server is up, streams, asks while the person types, denies, approves, toggles, lists tools and exits", async () => {
    const first = await waitForScreen(
      (text) => text.includes("›") && text.includes("servers ready"),
      "the prompt",
    );
    expect(first).toMatch(/starting/);
    // The prompt is up while the slow server is still starting; now let it finish.
    await writeFile(slowGate, "");

    await waitForScreen((text) => /kb \d+ chunks?\b/.test(text), "the knowledge base");
    await type("hello, how do I rollback?");
    await waitForScreen(
      (text) => text.includes("Hello there, streaming text about rollback [1]."),
      "the streamed answer",
    );
    expect(screen()).toContain("Knowledge (1)");

    await waitForScreen((text) => text.includes("2/2 servers ready"), "both servers");
    // The person sends a message and goes on typing while the model answers with a dangerous call:
    // the panel appears mid-sentence, and a sentence full of y, a, n, d and digits approves nothing.
    await type("write a note");
    const typeSlowly = async (text: string): Promise<void> => {
      for (const character of text) {
        tmux("send-keys", "-t", session, "-l", character);
        await pause(40);
      }
    };
    // Typing goes on until the panel is drawn (a few letters, however fast the model is), then on through it.
    let before = 0;
    while (!screen().includes("Allow this call?") && before < 40)
      await typeSlowly("then also ".charAt(before++ % 10));
    await waitForScreen((text) => text.includes("Allow this call?"), "the approval panel");
    const sentence = "yes and a note, any day: 1 2 done";
    await typeSlowly(sentence);
    const asking = await waitForScreen((text) => text.includes(sentence), "the sentence in the prompt");
    expect(asking).toContain("Allow this call?");
    expect(asking).toContain('"name": "denied.md"');
    expect(asking).toMatch(/› 1\. Deny \(n\)/);
    expect(asking).toMatch(/2\. Deny and tell the model why \(d\)/);
    expect(asking).toMatch(/3\. Approve once \(y\)/);
    expect(asking).toMatch(/4\. Always allow fixture\/write_note this session \(a\)/);
    expect(asking).toMatch(/5\. Always allow fixture\/write_note in this project/);
    expect(existsSync(path.join(notes, "denied.md"))).toBe(false);

    // Once the person has stopped typing, Enter confirms the focused choice: Deny.
    await pause(1000);
    keys("Enter");
    await waitForScreen((text) => text.includes("Understood, not written."), "the answer after the denial");
    expect(screen()).toContain("denied by user");
    // The sentence is still in the prompt, and Backspace (DEL) deletes backwards.
    keys("BSpace", "BSpace", "BSpace", "BSpace");
    await waitForScreen(
      (text) => text.includes("any day: 1 2") && !text.includes("1 2 d"),
      "Backspace to delete the last word",
    );
    keys("C-u");
    await waitForScreen((text) => !text.includes("yes and a note"), "Ctrl+U to clear the prompt");
    const toldModel = model.requests.some((request) =>
      (request.body as { messages: Array<{ role: string; content: unknown }> }).messages.some(
        (message) => message.role === "tool" && String(message.content).includes("denied"),
      ),
    );
    expect(toldModel).toBe(true);
    expect(existsSync(path.join(notes, "denied.md"))).toBe(false);

    await type("write again");
    await waitForScreen(
      (text) => text.includes('"name": "ok.md"') && text.includes("Allow this call?"),
      "the second approval",
    );
    // A deliberate y, after the guard time and with nothing typed, approves once.
    await pause(1000);
    keys("y");
    await waitForScreen((text) => text.includes("Wrote it."), "the answer after the approval");
    expect(await readFile(path.join(notes, "ok.md"), "utf8")).toBe("from the model");

    keys("C-o");
    const inspecting = await waitForScreen((text) => text.includes("Inspecting"), "the expanded panel");
    expect(inspecting).toContain("result (1 line):");
    keys("C-o");
    await waitForScreen((text) => !text.includes("Inspecting"), "the panel to collapse");

    await type("/tools");
    const tools = await waitForScreen(
      (text) => /fixture\s+connected\s+write_note\s+dangerous/.test(text),
      "the tools table",
    );
    expect(tools).toMatch(/slow\s+connected\s+echo\s+read_only/);

    await type("/trace");
    await waitForScreen(
      (text) => /write again[\s\S]*fixture\/write_note[\s\S]*Wrote it\./.test(text),
      "the trace tree",
    );
  }, 90_000);

  it("shrinks to 40 columns leaving no ghost boxes, and a whole turn works there", async () => {
    // A draft in the prompt makes its box the widest thing on screen as the window narrows.
    tmux("send-keys", "-t", session, "-l", "a draft");
    await waitForScreen((text) => text.includes("› a draft"), "the draft");
    resize(40);
    const narrow = await waitForScreen(promptBoxAt(40), "the prompt box 40 columns wide, alone");
    expect(narrow).toContain("› a draft");
    keys("C-u");
    await waitForScreen((text) => !text.includes("› a draft"), "Ctrl+U to clear the draft");

    const requestsBefore = model.requests.length;
    await type("write again at 40 columns", (text) => text.includes("write again at 40"));
    const asking = await waitForScreen((text) => text.includes("Allow this call?"), "the approval at 40");
    // The badge and the tool's name stay whole on one line.
    expect(asking).toMatch(/^│ Allow this call\? \[dangerous\] +│$/m);
    expect(asking).toMatch(/^│ fixture\/write_note #\d+ +│$/m);
    await pause(1000);
    keys("y");
    await waitForScreen(
      (text) =>
        model.requests.length >= requestsBefore + 2 &&
        text.includes("Wrote it.") &&
        !text.includes("Allow this call?") &&
        promptBoxAt(40)(text),
      "the answer after the approval at 40",
    );

    keys("C-o");
    await waitForScreen(
      (text) => text.includes("Inspecting") && /lines 1–\d+ of \d+/.test(text),
      "the inspector",
    );
    keys("Escape");
    await waitForScreen((text) => !text.includes("Inspecting"), "Esc to close the inspector");

    await type("/tools");
    // At 40 columns the table becomes one record per tool.
    await waitForScreen(
      (text) => /tool: write_note\n tier: dangerous/.test(text) && text.includes("shows a tool's"),
      "the tools at 40",
    );
  }, 90_000);

  it("queues messages during a turn, lets the last be taken back and removed, and Esc keeps the queue", async () => {
    await type("stall for a while");
    await waitForScreen((text) => /Esc (or Ctrl\+C )?cancel/.test(text), "the running turn");
    await type("first queued", (text) => text.includes("› first queued"));
    await waitForScreen((text) => text.includes("⏵ queued: first queued"), "the first queued message");
    await type("second queued", (text) => text.includes("› second queued"));
    await waitForScreen((text) => text.includes("⏵ queued: second queued"), "the second queued message");
    // ↑ on the empty prompt takes the last one back to edit; Ctrl+U then removes it.
    keys("Up");
    await waitForScreen(
      (text) => text.includes("› second queued") && !text.includes("⏵ queued: second queued"),
      "↑ to take the last queued message back",
    );
    keys("C-u");
    await waitForScreen((text) => !text.includes("second queued"), "Ctrl+U to remove it");
    await type("second, edited", (text) => text.includes("› second, edited"));
    await waitForScreen((text) => text.includes("⏵ queued: second, edited"), "the edited message queued");

    keys("Escape");
    const held = await waitForScreen((text) => text.includes("Interrupted"), "Esc to cancel the turn");
    expect(held).toContain("⏵ queued: first queued");
    expect(held).toContain("⏵ queued: second, edited");
    expect(model.requests.some((request) => JSON.stringify(request.body).includes("first queued"))).toBe(
      false,
    );
    // The held queue goes on with Enter on the empty prompt, in order.
    keys("Enter");
    await waitForScreen(
      (text) => text.includes("› first queued") && !text.includes("⏵ queued: first queued"),
      "the first queued message sent",
    );
    await waitForScreen(
      (text) => text.includes("› second, edited") && !text.includes("⏵ queued"),
      "the second one sent after it",
    );
  }, 90_000);

  it("grows back to 120 columns leaving no ghosts; ↑ recalls a multi-line entry whole, then goes on through history", async () => {
    resize(120);
    await waitForScreen(promptBoxAt(120), "the prompt box 120 columns wide, alone");
    // No turn may still be running (a loaded machine is slow to finish the last one): a message
    // sent during a turn is queued, and ↑ would take it back instead of recalling history.
    await waitForScreen((text) => text.includes("Enter send ·"), "no turn running");

    tmux("send-keys", "-t", session, "-l", "line one");
    await waitForScreen((text) => text.includes("› line one"), "the first line");
    keys("M-Enter");
    tmux("send-keys", "-t", session, "-l", "line two");
    await waitForScreen((text) => /^│ {3}line two/m.test(text), "the second line");
    keys("Enter");
    await waitForScreen((text) => promptRows(text) === 1 && /^│ › +│$/m.test(text), "the two lines sent");
    keys("Up");
    await waitForScreen(
      (text) => /^│ › line one +│\n│ {3}line two +│$/m.test(text),
      "↑ to recall the two-line entry",
    );
    // A second ↑ goes to the entry before it instead of walking up into "line one".
    keys("Up");
    await waitForScreen(
      (text) => /^│ › \S/m.test(text) && !/^│ › line one/m.test(text) && !/^│ {3}line two/m.test(text),
      "↑ again to go on through history",
    );
    keys("C-u");
    await waitForScreen((text) => /^│ › +│$/m.test(text), "Ctrl+U to clear the prompt");

    // Idle first: Ctrl+D during a turn asks for a second press instead of exiting.
    await waitForScreen((text) => text.includes("Ctrl+D exit"), "no turn running");
    keys("C-d");
    await waitForScreen((text) => text.includes("EXITED 0"), "a clean exit");
  }, 90_000);
});

describe("keys typed before the first frame", () => {
  const early = "early";
  let earlyDir: string;

  beforeAll(async () => {
    earlyDir = await tempDir("mcpterm-tui-early-");
    // mcpterm starts only once the gate exists, so the keys are certainly typed before it runs,
    // while the terminal is still in cooked mode and echoes them.
    const start = mcptermPaneCommand({
      home: earlyDir,
      args: ["--model", "scripted", "--base-url", model.baseUrl],
      keep: false,
    });
    const command = `while [ ! -e gate ]; do sleep 0.05; done; ${start}; echo "EXITED $?"; sleep 60`;
    tmux("new-session", "-d", "-s", early, "-x", "100", "-y", "30", "-c", earlyDir, command);
  });

  const earlyScreen = (): string => tmux("capture-pane", "-p", "-J", "-t", early);
  async function waitForEarly(check: (text: string) => boolean, what: string): Promise<string> {
    const deadline = Date.now() + 30_000;
    let text = earlyScreen();
    while (!check(text)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen was:\n${text}`);
      await pause(100);
      text = earlyScreen();
    }
    return text;
  }

  it("go into the prompt: Enter sends, the rest waits in the box, and nothing is left echoed above the UI", async () => {
    tmux("send-keys", "-t", early, "-l", "typed early");
    tmux("send-keys", "-t", early, "Enter");
    tmux("send-keys", "-t", early, "-l", "and more");
    await waitForEarly((text) => /^and more/m.test(text), "the terminal to echo the keys");
    await writeFile(path.join(earlyDir, "gate"), "");

    const shown = await waitForEarly(
      (text) =>
        text.includes("› typed early") && /^│ › and more +│$/m.test(text) && text.includes("Hello there"),
      "the early message sent and the rest in the prompt",
    );
    expect(shown).not.toMatch(/^typed early/m);
    expect(shown).not.toMatch(/^and more/m);
    const sent = model.requests.filter((request) => JSON.stringify(request.body).includes("typed early"));
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0]?.body)).not.toContain("typed early\\nand more");

    tmux("send-keys", "-t", early, "C-u");
    await waitForEarly((text) => /^│ › +│$/m.test(text), "Ctrl+U to clear the prompt");
    // Idle first: Ctrl+D during a turn asks for a second press instead of exiting.
    await waitForEarly((text) => text.includes("Ctrl+D exit"), "no turn running");
    tmux("send-keys", "-t", early, "C-d");
    await waitForEarly((text) => text.includes("EXITED 0"), "a clean exit");
  }, 60_000);
});
