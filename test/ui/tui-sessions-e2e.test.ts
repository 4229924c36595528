import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ANSWER_GUARD_MS } from "../../src/common/cli-io.js";
import { CLI, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitFor } from "../support/poll.js";
import { cleanEnv, runCli, TEST_SETTINGS_DIR } from "../support/run-cli.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * Resuming in the real TUI, in a pseudo-terminal: the picker of `--resume`, the transcript drawn
 * again with a warning for a server that is gone, a kill mid-turn that loses only that turn, and
 * `/resume` inside the TUI.
 */
let model: ScriptedModelServer;
let dir: string;
const terminals: TmuxTerminal[] = [];

interface Message {
  role: string;
  content: string | null;
}

function messagesOf(request: RecordedRequest | undefined): Message[] {
  return (request?.body as { messages: Message[] } | undefined)?.messages ?? [];
}

function userMessages(): string[] {
  return messagesOf(model.requests.at(-1))
    .filter((message) => message.role === "user")
    .map((message) => message.content ?? "");
}

function reply(request: RecordedRequest): ScriptedReply {
  const last = messagesOf(request).at(-1);
  const text = typeof last?.content === "string" ? last.content : "";
  if (text.startsWith("hang")) return { hang: true };
  if (text.startsWith("call the tool"))
    return { toolCalls: [{ name: "fixture__echo", arguments: JSON.stringify({ text: "from the tool" }) }] };
  if (text.startsWith("write and echo"))
    return {
      toolCalls: [
        { id: "e", name: "fixture__echo", arguments: JSON.stringify({ text: "hi" }) },
        { id: "w", name: "fixture__write_note", arguments: JSON.stringify({ name: "n.md", text: "x" }) },
      ],
    };
  if (last?.role === "tool") return { text: "The tool said so." };
  return { text: `echo: ${text}` };
}

/** The TUI in a fresh pseudo-terminal; `marker` finds its node process in the process table. */
function open(marker: string, ...args: string[]): TmuxTerminal {
  const trace = path.join(dir, `${marker}.jsonl`);
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--no-kb", "--trace", trace, "--model", "scripted", "--base-url", model.baseUrl, ...args],
    // The person of the one-shot runs that saved the first sessions (cleanEnv's settings folder).
    env: [`MCPTERM_SETTINGS_DIR=${TEST_SETTINGS_DIR}`],
  });
  const terminal = new TmuxTerminal(command, { cwd: dir, columns: 120, rows: 40 });
  terminals.push(terminal);
  return terminal;
}

/** The pid of the mcpterm process itself (not the shell that started it). */
function mcptermPid(marker: string): number {
  const table = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  const line = table
    .split("\n")
    .map((entry) => entry.trim())
    .find(
      (entry) =>
        entry.includes(`${marker}.jsonl`) && entry.replace(/^\d+\s+/, "").startsWith(process.execPath),
    );
  if (!line) throw new Error(`no mcpterm process for ${marker}`);
  return Number(line.split(/\s+/)[0]);
}

async function typeLine(terminal: TmuxTerminal, text: string): Promise<void> {
  terminal.text(text);
  await terminal.waitFor((screen) => screen.includes(`› ${text}`), `"${text}" typed`);
  terminal.keys("Enter");
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(reply);
  dir = await tempDir("mcpterm-tui-sessions-");
  const env = cleanEnv({ OPENAI_BASE_URL: model.baseUrl, MCPTERM_MODEL: "scripted" });
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { fixture: fixtureLaunch("tui-sessions") },
  });
  const first = await runCli(["--no-kb", "--trust-config", "-p", "call the tool"], { cwd: dir, env });
  expect(first.code, first.stderr).toBe(0);
  // The server the first session used is gone when it is resumed.
  await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: {} });
  const second = await runCli(["--no-kb", "-p", "the newer session"], { cwd: dir, env });
  expect(second.code, second.stderr).toBe(0);
});

afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.close();
});

afterAll(async () => {
  await model.close();
});

describe("resuming sessions in the TUI", () => {
  it("picks a session, draws its transcript, warns of a gone server, and loses only a killed turn", async () => {
    const picker = open("pick", "--resume");
    const list = await picker.waitFor((screen) => screen.includes("Resume which?"), "the picker");
    expect(list).toMatch(/^1 {3}\d{4}-\d\d-\d\d \d\d:\d\d {2}1 turn {4}the newer session$/m);
    expect(list).toMatch(/^2 {3}\d{4}-\d\d-\d\d \d\d:\d\d {2}1 turn {4}call the tool$/m);
    // Keys within the answer guard of the question count as typed ahead, so answer after it.
    await delay(ANSWER_GUARD_MS + 200);
    picker.text("2");
    picker.keys("Enter");
    const resumed = await picker.waitFor(
      (screen) => screen.includes("is not in the config now"),
      "the warning",
    );
    expect(resumed).toContain("› call the tool");
    expect(resumed).toContain("· called fixture/echo");
    expect(resumed).toContain("The tool said so.");
    expect(resumed).toMatch(/· Resumed session \S+ \(1 turn, started/);
    expect(resumed).toContain(
      '! Server "fixture", which this session used, is not in the config now; its tools cannot be called.',
    );
    expect(resumed).not.toContain("echo: the newer session");

    const requests = model.requests.length;
    await typeLine(picker, "hang now");
    await waitFor(() => model.requests.length > requests, "the turn's request");
    expect(userMessages()).toEqual(["call the tool", "hang now"]);
    process.kill(mcptermPid("pick"), "SIGKILL");
    await picker.waitFor((screen) => screen.includes("EXITED 137"), "the kill");

    const again = open("again", "--resume", sessionIdOf(resumed));
    await again.waitFor((screen) => screen.includes("Resumed session"), "the resumed transcript");
    expect(again.screen()).not.toContain("hang now");
    await typeLine(again, "after the kill");
    await again.waitFor((screen) => screen.includes("echo: after the kill"), "the answer");
    expect(userMessages()).toEqual(["call the tool", "after the kill"]);
  }, 120_000);

  it("lists and switches sessions with /resume", async () => {
    // The session the test above went on with was saved last, so it is the one to continue.
    const terminal = open("slash", "--continue");
    await terminal.waitFor((screen) => screen.includes("echo: after the kill"), "the latest session");
    await typeLine(terminal, "/resume");
    const table = await terminal.waitFor(
      (screen) => screen.includes("/resume <#> or /resume <id>"),
      "the list",
    );
    expect(table).toMatch(/^\s*1\s.*call the tool/m);
    expect(table).toMatch(/^\s*2\s.*the newer session/m);
    await typeLine(terminal, "/resume 2");
    const switched = await terminal.waitFor(
      (screen) => screen.includes("echo: the newer session"),
      "its transcript",
    );
    expect(switched).toContain("Going on with session");
    expect(switched).not.toContain("after the kill");
    await typeLine(terminal, "one more");
    await terminal.waitFor((screen) => screen.includes("echo: one more"), "the answer");
    expect(userMessages()).toEqual(["the newer session", "one more"]);
  }, 120_000);
});

describe("a resumed session's calls", () => {
  it("are shown as what they were: a denied call reads denied, not called", async () => {
    const denials = await tempDir("mcpterm-tui-denied-");
    const env = cleanEnv({ OPENAI_BASE_URL: model.baseUrl, MCPTERM_MODEL: "scripted" });
    await writeJson(path.join(denials, "mcp.config.json"), {
      mcpServers: { fixture: fixtureLaunch("tui-denied") },
    });
    // One-shot mode denies the dangerous write (no --approve) and runs the echo.
    const run = await runCli(["--no-kb", "--trust-config", "-p", "write and echo"], { cwd: denials, env });
    expect(run.code, run.stderr).toBe(3);
    const command = mcptermPaneCommand({
      home: denials,
      args: ["--no-kb", "--trust-config", "--model", "scripted", "--base-url", model.baseUrl, "--continue"],
      // The same person as the run above: --continue goes on only with their own sessions.
      env: [`MCPTERM_SETTINGS_DIR=${TEST_SETTINGS_DIR}`],
    });
    const terminal = new TmuxTerminal(command, { cwd: denials, columns: 120, rows: 40 });
    terminals.push(terminal);
    const resumed = await terminal.waitFor((screen) => screen.includes("Resumed session"), "the transcript");
    expect(resumed).toContain("· called fixture/echo · denied fixture/write_note");
    expect(resumed).not.toContain("called fixture/write_note");
  }, 60_000);
});

function sessionIdOf(screen: string): string {
  const id = /Resumed session (\S+) /.exec(screen)?.[1];
  if (!id) throw new Error(`no session id on the screen:\n${screen}`);
  return id;
}
