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
 * The real binary in a pseudo-terminal against the 2026-only fixture and the 2025-only one, which
 * have the same tools. The 2026 server's questions arrive inside its answers (input_required,
 * SEP-2322) and mcpterm sends the request again with the answers; the 2025 server asks with
 * requests of its own. The person answers both in the same panels.
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
const isSampling = (request: RecordedRequest): boolean =>
  !Array.isArray((request.body as { tools?: unknown }).tools);

function reply(request: RecordedRequest): ScriptedReply {
  if (isSampling(request)) return { text: "forty-two" };
  const last = messagesOf(request).at(-1);
  if (last?.role === "tool") return { text: "The tool has finished." };
  const content = typeof last?.content === "string" ? last.content : "";
  // "… on legacy" goes to the 2025 server, anything else to the 2026 one.
  const server = content.includes("on legacy") ? "legacy" : "modern";
  const call = (tool: string, args: object): ScriptedReply => ({
    toolCalls: [{ name: `${server}__${tool}`, arguments: JSON.stringify(args) }],
  });
  if (content.startsWith("deploy")) return call("confirm_action", { action: "deploy" });
  if (content.startsWith("ask")) return call("ask_model", { question: "the answer?" });
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
  const dir = await tempDir("mcpterm-tui-mrtr-");
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      modern: {
        command: process.execPath,
        args: [compiledFixture("modern-server"), `--marker=${marker}`],
        tiers: { confirm_action: "read_only", ask_model: "read_only" },
      },
      legacy: {
        command: process.execPath,
        args: [compiledFixture("legacy-server"), `--marker=${marker}`],
        tiers: { confirm_action: "read_only", ask_model: "read_only" },
      },
    },
  });
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--trust-config", "--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 120, rows: 50 });
  await terminal.waitFor((screen) => screen.includes("2/2 servers ready"), "the server");
}, 60_000);

afterAll(async () => {
  terminal.close();
  await model.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

describe.each([
  ["a 2026 server's questions (input_required)", "modern"],
  ["a 2025 server's questions (server requests)", "legacy"],
])("%s in the TUI", (_title, server) => {
  it("a form: the person ticks the box, the call goes on with the answer", async () => {
    const before = toolResults().length;
    await send(`deploy now on ${server}`);
    await terminal.waitFor((screen) => screen.includes("asks you to fill in a form"), "the form");
    expect(terminal.screen()).toContain("Really deploy?");
    await pause(1000);
    terminal.keys("Space");
    terminal.keys(...Array<string>(6).fill("Tab"));
    await terminal.waitFor((screen) => screen.includes("←/→ choose · Enter confirm"), "the buttons");
    await pause(1000);
    terminal.keys("Enter");
    expect(await turnEnded(before)).toContain("deploy: confirmed");
  }, 90_000);

  it("sampling: denied once, it is not asked again; approved, the model's words go back", async () => {
    const denied = toolResults().length;
    await send(`ask the model on ${server}`);
    await terminal.waitFor((screen) => screen.includes("asks to use the model"), "the panel");
    expect(terminal.screen()).toContain("user: the answer?");
    await pause(1000);
    terminal.text("n");
    expect(await turnEnded(denied)).toMatch(/denied|declined/);
    expect(terminal.screen()).not.toContain("asks to use the model");

    const approved = toolResults().length;
    await send(`ask the model again on ${server}`);
    await terminal.waitFor((screen) => screen.includes("asks to use the model"), "the panel again");
    await pause(1000);
    terminal.text("y");
    expect(await turnEnded(approved)).toContain("the model said: forty-two");
  }, 90_000);
});
