import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
} from "../support/scripted-model-server.js";
import { waitForFileText } from "../support/poll.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * The real binary in a pseudo-terminal: the prompt edited in a scripted $EDITOR (Ctrl+X Ctrl+E
 * arriving in one read, and Ctrl+G), `@path` completed with Tab and attached, a secrets file
 * refused, and an answer's confirmed and inferred parts drawn apart. Keys go in as the bytes a
 * terminal sends.
 */
let model: ScriptedModelServer;
let dir: string;
let editorLog: string;
let terminal: TmuxTerminal;

const ANSWER = [
  "The constant is one.",
  "",
  "**Confirmed:**",
  "- `src/main.ts` exports a = 1",
  "",
  "**Inferred (to verify):** nothing else uses it",
].join("\n");

function lastUserMessage(request: RecordedRequest | undefined): string {
  const body = request?.body as { messages: Array<{ role: string; content: string }> } | undefined;
  return body?.messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
}

/** The prompt's line as drawn, `│ › …`, without the box's padding. */
function promptLine(screen: string): string {
  const line = screen.split("\n").findLast((candidate) => candidate.startsWith("│ › ")) ?? "";
  return line.slice(4, -1).trimEnd();
}

async function typed(text: string, shown: (line: string) => boolean, what: string): Promise<string> {
  terminal.text(text);
  return terminal.waitFor((screen) => shown(promptLine(screen)), what);
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer((request) =>
    lastUserMessage(request).startsWith("answer while I edit")
      ? { text: "Answered while the editor had the terminal.", chunkSize: 5 }
      : { text: ANSWER, chunkSize: 5 },
  );
  dir = await tempDir("mcpterm-tui-editor-");
  editorLog = path.join(dir, "editor-log.jsonl");
  await mkdir(path.join(dir, "src"));
  await writeFile(path.join(dir, "src", "main.ts"), "export const a = 1;\n");
  await writeFile(path.join(dir, ".env"), "TOKEN=abc\n");
  // The scripted editor: logs how it was called, then appends to the file (or fails when told to).
  // It is found on PATH by a short name, so no message quoting it depends on where the test runs.
  const bin = path.join(dir, "bin");
  await mkdir(bin);
  const editor = path.join(bin, "test-editor.mjs");
  await writeFile(
    editor,
    [
      "#!/usr/bin/env node",
      'import { appendFileSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";',
      "const file = process.argv.at(-1);",
      "const text = readFileSync(file, 'utf8');",
      `appendFileSync(${JSON.stringify(editorLog)}, JSON.stringify({ args: process.argv.slice(2), text, tty: process.stdin.isTTY === true }) + "\\n");`,
      "if (text.includes('FAIL')) process.exit(1);",
      // An empty draft: the editor stays open a while, as a person reading does, then saves.
      "if (text === '') { setTimeout(() => { writeFileSync(file, 'written after the wait\\n'); process.exit(0); }, 1500); }",
      // Like an editor that saves elsewhere and deletes what it was given.
      "if (text.includes('GONE')) { unlinkSync(file); process.exit(0); }",
      "const save = () => { writeFileSync(file, text + ' (edited)\\n'); process.exit(0); };",
      // Like vim, it keeps Ctrl+C for itself: it saves once it has had one.
      // It stays open until the terminal closes under it (SIGHUP).
      `if (text.includes('HANGUP')) { appendFileSync(${JSON.stringify(editorLog)}, JSON.stringify({ hangup: file }) + "\\n"); setInterval(() => undefined, 1000); }`,
      "else if (text === '') {}",
      `else if (text.includes('INTERRUPT')) { process.on('SIGINT', save); appendFileSync(${JSON.stringify(editorLog)}, JSON.stringify({ waiting: true }) + "\\n"); setInterval(() => undefined, 1000); }`,
      // One that a Ctrl+C stops, as a hung editor is: the terminal echoes ^C on its last row.
      `else if (text.includes('STOPPED')) { appendFileSync(${JSON.stringify(editorLog)}, JSON.stringify({ stoppable: true }) + "\\n"); setInterval(() => undefined, 1000); } else save();`,
    ].join("\n"),
    { mode: 0o755 },
  );
  const command = mcptermPaneCommand({
    home: dir,
    env: [`PATH=${bin}:${process.env.PATH ?? ""}`, "EDITOR=test-editor.mjs --wait"],
    args: ["--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 120, rows: 40 });
});

afterAll(async () => {
  terminal.close();
  await model.close();
});

async function editorCalls(): Promise<Array<{ args: string[]; text: string; tty: boolean }>> {
  const text = await readFile(editorLog, "utf8").catch(() => "");
  return text
    .trim()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { args: string[]; text: string; tty: boolean });
}

describe("the external editor, @path mentions and confirmed/inferred parts in the TUI", () => {
  it("round-trips the prompt through $EDITOR with Ctrl+X Ctrl+E and with Ctrl+G", async () => {
    await terminal.waitFor((screen) => screen.includes("no servers"), "the TUI");
    await typed("draft text", (line) => line === "draft text", "the draft");
    // Ctrl+X and Ctrl+E in one read, as a fast typist's terminal may send them.
    terminal.text("\u0018\u0005");
    const edited = await terminal.waitFor(
      (screen) => promptLine(screen) === "draft text (edited)",
      "the edit",
    );
    const [call] = await editorCalls();
    expect(call?.args.slice(0, 1)).toEqual(["--wait"]);
    expect(call?.args.at(-1)).toMatch(/mcpterm-edit-[^/]+\/message\.md$/);
    expect(call?.text).toBe("draft text");
    // The editor had the terminal; afterwards the TUI is drawn once, with no copy left behind.
    expect(call?.tty).toBe(true);
    expect(edited.split("\n").filter((line) => line.startsWith("╭")).length).toBe(1);

    terminal.text("\u0007");
    await terminal.waitFor(
      (screen) => promptLine(screen) === "draft text (edited) (edited)",
      "the second edit",
    );
    // Keys work as before once the terminal is back.
    terminal.text(" more");
    await terminal.waitFor((screen) => promptLine(screen) === "draft text (edited) (edited) more", "typing");

    // An editor that fails leaves the prompt as it was, and says so.
    terminal.text("\u0015FAIL");
    await terminal.waitFor((screen) => promptLine(screen) === "FAIL", "the new draft");
    terminal.text("\u0007");
    const failed = await terminal.waitFor((screen) => screen.includes("exited with code 1"), "the failure");
    expect(failed).toContain(
      '✗ The editor "test-editor.mjs" ($EDITOR) exited with code 1; the prompt was left as it was.',
    );
    expect(promptLine(failed)).toBe("FAIL");

    // One that removes the file leaves nothing to read back: said so, and mcpterm keeps running.
    terminal.text("\u0015GONE");
    await terminal.waitFor((screen) => promptLine(screen) === "GONE", "the draft it removes");
    terminal.text("\u0007");
    const gone = await terminal.waitFor((screen) => screen.includes("left no file"), "the removed file");
    // Wrapped at the screen's width.
    expect(gone.replaceAll("\n", " ")).toContain(
      '✗ The editor "test-editor.mjs" ($EDITOR) left no file to read back (it removed the one it was given); the prompt was left as it was.',
    );
    expect(promptLine(gone)).toBe("GONE");
    terminal.text(" still");
    await terminal.waitFor((screen) => promptLine(screen) === "GONE still", "typing after it");
    terminal.text("\u0015");
    await terminal.waitFor((screen) => promptLine(screen) === "", "the cleared prompt");
  }, 90_000);

  it("keeps running when Ctrl+C is pressed in the editor: the key is the editor's", async () => {
    await typed("INTERRUPT", (line) => line === "INTERRUPT", "the draft");
    terminal.text("\u0007");
    await waitForFileText(editorLog, '{"waiting":true}');
    terminal.keys("C-c");
    const back = await terminal.waitFor(
      (screen) => promptLine(screen) === "INTERRUPT (edited)",
      "the edit after Ctrl+C",
    );
    expect(back).not.toContain("EXITED");
    terminal.text("\u0015");
    await terminal.waitFor((screen) => promptLine(screen) === "", "the cleared prompt");
  }, 90_000);

  it("draws the prompt whole after a Ctrl+C stops the editor, nothing of it left beside ^C", async () => {
    await typed("STOPPED", (line) => line === "STOPPED", "the draft");
    terminal.text("\u0007");
    await waitForFileText(editorLog, '{"stoppable":true}');
    terminal.keys("C-c");
    const back = await terminal.waitFor(
      (screen) => screen.includes("was stopped by SIGINT") && promptLine(screen) === "STOPPED",
      "the prompt back after the editor was stopped",
    );
    // The frame's first row starts a row of its own: no broken top border after the echo.
    expect(back).not.toMatch(/\^C\S/);
    expect(back.split("\n").filter((line) => line.startsWith("╭")).length, back).toBe(1);
    terminal.text("\u0015");
    await terminal.waitFor((screen) => promptLine(screen) === "", "the cleared prompt");
  }, 90_000);

  it("completes @path with Tab, attaches the file, and draws the answer's parts apart", async () => {
    await typed("explain @sr", (line) => line === "explain @sr", "the mention");
    terminal.text("\t");
    await terminal.waitFor((screen) => promptLine(screen) === "explain @src/", "the folder");
    await typed("ma", (line) => line === "explain @src/ma", "more of it");
    terminal.text("\t");
    await terminal.waitFor((screen) => promptLine(screen) === "explain @src/main.ts", "the file");
    terminal.text("\r");
    const answered = await terminal.waitFor(
      (screen) => screen.includes("nothing else uses it"),
      "the answer",
    );
    expect(lastUserMessage(model.requests.at(-1))).toBe(
      'explain @src/main.ts \n\n<file path="src/main.ts" trust="untrusted">\nexport const a = 1;\n\n</file>',
    );
    expect(answered).toContain("⎘ @src/main.ts · 20 B, 1 line");
    expect(answered).toContain("✓ Confirmed");
    expect(answered).toMatch(/┃ • src\/main\.ts exports a = 1/);
    expect(answered).toContain("? Inferred (to verify)");
    expect(answered).toMatch(/┃ nothing else uses it/);

    const requests = model.requests.length;
    await typed("read @.env", (line) => line === "read @.env", "the secret mention");
    terminal.text("\r");
    const refused = await terminal.waitFor((screen) => screen.includes("never attaches"), "the refusal");
    expect(refused).toContain(
      "@.env looks like a file of secrets, which mcpterm never attaches; the message was not sent.",
    );
    await terminal.waitFor((screen) => promptLine(screen) === "read @.env", "the message handed back");
    expect(model.requests.length).toBe(requests);
  }, 90_000);

  // Last: it closes the terminal.
  it("prints what finished while the editor had the terminal once it is back", async () => {
    terminal.text("\u0015");
    await typed("answer while I edit", (line) => line === "answer while I edit", "the message");
    // Sent, and the editor opened at once on the empty prompt: the answer comes while it is open.
    terminal.text("\r");
    terminal.text("\u0007");
    const back = await terminal.waitFor(
      (screen) => promptLine(screen) === "written after the wait",
      "the edit after the wait",
    );
    await terminal.waitFor(
      (screen) => screen.includes("Answered while the editor had the terminal."),
      "the answer that came meanwhile",
    );
    expect(back).not.toContain("EXITED");
    terminal.text("\u0015");
    await terminal.waitFor((screen) => promptLine(screen) === "", "the cleared prompt");
  }, 60_000);

  it("leaves no draft behind when the terminal closes while the editor is open", async () => {
    terminal.text("\u0015");
    await typed("HANGUP", (line) => line === "HANGUP", "the draft");
    terminal.text("\u0007");
    const draft = await waitForDraft();
    expect(existsSync(draft)).toBe(true);
    terminal.close();
    await waitForGone(path.dirname(draft));
  }, 60_000);
});

/** The file the editor was opened on for the HANGUP draft, once it is open. */
async function waitForDraft(): Promise<string> {
  await waitForFileText(editorLog, '"hangup"');
  const logged = (await readFile(editorLog, "utf8")).split("\n").find((line) => line.includes('"hangup"'));
  return (JSON.parse(logged ?? "{}") as { hangup: string }).hangup;
}

async function waitForGone(folder: string): Promise<void> {
  for (let waited = 0; existsSync(folder); waited += 100) {
    if (waited > 20_000) throw new Error(`${folder} was left behind after the terminal closed`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
