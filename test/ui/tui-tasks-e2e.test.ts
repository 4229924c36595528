import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { CLI, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * The real binary in a pseudo-terminal against the 2026-only fixture, whose long_job runs as a
 * task (io.modelcontextprotocol/tasks): its panel shows the task's status as it changes, Esc
 * cancels it while the person is typing something else (the server gets tasks/cancel, the
 * draft stays), /tasks lists it, and a question the task asks is answered in the usual form.
 */
const marker = randomUUID();
let model: ScriptedModelServer;
let terminal: TmuxTerminal;

interface Message {
  role: string;
  content: unknown;
}
const messagesOf = (request: RecordedRequest): Message[] =>
  (request.body as { messages: Message[] }).messages;

function reply(request: RecordedRequest): ScriptedReply {
  const last = messagesOf(request).at(-1);
  if (last?.role === "tool") return { text: "The tool has finished." };
  const content = typeof last?.content === "string" ? last.content : "";
  const call = (tool: string, args: object): ScriptedReply => ({
    toolCalls: [{ name: `modern__${tool}`, arguments: JSON.stringify(args) }],
  });
  if (content.startsWith("run the long job")) return call("long_job", { steps: 600, stepMs: 100 });
  if (content.startsWith("which tasks")) return call("task_cancels", {});
  if (content.startsWith("ask me")) return call("long_job", { steps: 2, stepMs: 100, question: "Carry on?" });
  return { text: "Hello." };
}

const toolResults = (): string[] =>
  model.requests.flatMap((request) => {
    const last = messagesOf(request).at(-1);
    return last?.role === "tool" ? [String(last.content)] : [];
  });

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function send(text: string): Promise<void> {
  terminal.text(text);
  await terminal.waitFor((screen) => screen.includes(`› ${text}`), `"${text}" in the prompt`);
  terminal.keys("Enter");
}

async function turnEnded(before: number): Promise<string> {
  await terminal.waitFor(
    (screen) => toolResults().length > before && screen.includes("Ctrl+D exit"),
    "the turn to end after the tool result",
  );
  return toolResults().at(-1) ?? "";
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(reply);
  const dir = await tempDir("mcpterm-tui-tasks-");
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      modern: {
        command: process.execPath,
        args: [compiledFixture("modern-server"), `--marker=${marker}`],
        tiers: { long_job: "read_only", task_cancels: "read_only" },
      },
    },
  });
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--trust-config", "--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 140, rows: 50 });
  await terminal.waitFor((screen) => screen.includes("1/1 servers ready"), "the server");
}, 60_000);

afterAll(async () => {
  terminal.close();
  await model.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

describe("a tool the server runs as a task, in the TUI", () => {
  it("the panel shows the task's status as it changes; Esc while typing cancels it, the draft stays", async () => {
    await send("run the long job");
    const stepShown = (screen: string): number =>
      Number(/task job-1 working: step (\d+) of 600/.exec(screen)?.[1] ?? 0);
    await terminal.waitFor((screen) => stepShown(screen) > 0, "the task's status in the panel");
    // The person starts typing the next message; the task goes on meanwhile.
    terminal.text("next question");
    const typed = await terminal.waitFor((screen) => screen.includes("› next question"), "the draft");
    const before = stepShown(typed);
    await terminal.waitFor((screen) => stepShown(screen) > before, "the status to move on while typing");
    terminal.keys("Escape");
    await terminal.waitFor(
      (screen) => screen.includes("cancelled · task job-1 cancelled (tasks/cancel sent)"),
      "the panel to say cancelled",
    );
    expect(terminal.screen()).toContain("› next question");

    // The server heard tasks/cancel for that task.
    terminal.keys("C-u");
    await terminal.waitFor((screen) => !screen.includes("› next question"), "the draft cleared");
    const results = toolResults().length;
    await send("which tasks were cancelled?");
    expect(await turnEnded(results)).toContain("job-1");
  }, 120_000);

  it("Ctrl+C on an empty prompt cancels the running task too", async () => {
    await send("run the long job again");
    await terminal.waitFor(
      (screen) => /task job-2 working: step [1-9]\d* of 600/.test(screen),
      "the second task's status",
    );
    terminal.keys("C-c");
    await terminal.waitFor(
      (screen) => screen.includes("cancelled · task job-2 cancelled (tasks/cancel sent)"),
      "the panel to say cancelled",
    );
  }, 60_000);

  it("/tasks lists the session's tasks: server, tool, id, status, age", async () => {
    terminal.text("/tasks");
    await terminal.waitFor((screen) => screen.includes("› /tasks"), "the command typed");
    terminal.keys("Enter");
    const screen = await terminal.waitFor(
      (text) => text.includes("Tasks this session (2)"),
      "the task table",
    );
    expect(screen).toMatch(/modern\s+long_job\s+job-1\s+cancelled: tasks\/cancel sent\s+\d/);
    expect(screen).toMatch(/modern\s+long_job\s+job-2\s+cancelled: tasks\/cancel sent\s+\d/);
  }, 60_000);

  it("a question the task asks while it runs is answered in the form; the task goes on with it", async () => {
    const before = toolResults().length;
    await send("ask me during the job");
    await terminal.waitFor((screen) => screen.includes("asks you to fill in a form"), "the form");
    expect(terminal.screen()).toContain("Carry on?");
    expect(terminal.screen()).toMatch(/task job-3 input required: waiting for an answer: Carry on\?/);
    // Keys within 0.8 s of a panel appearing never decide it (see README, Approval).
    await pause(1000);
    terminal.keys("Space");
    terminal.keys(...Array<string>(6).fill("Tab"));
    await terminal.waitFor((screen) => screen.includes("←/→ choose · Enter confirm"), "the buttons");
    await pause(1000);
    terminal.keys("Enter");
    expect(await turnEnded(before)).toContain("job done after 2 steps (go on: yes)");
  }, 90_000);
});
