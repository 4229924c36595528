import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, EVERYTHING_SERVER, tempDir, writeJson } from "../support/fixtures.js";
import { mcptermPaneCommand } from "../support/tmux.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/**
 * The real binary in a real pseudo-terminal (tmux) against server-everything and the scripted
 * model server: @-mentions completed with Tab and attached, a server prompt run as a command, and
 * a mention that cannot be read handed back. Keys are sent as the bytes a terminal sends.
 */
const socket = `mcpterm-mentions-${randomUUID().slice(0, 8)}`;
const session = "tui";
let model: ScriptedModelServer;

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
}

function screen(): string {
  return tmux("capture-pane", "-p", "-J", "-t", session);
}

/** Sends bytes exactly as typed: text, "\t" for Tab, "\r" for Enter. */
function bytes(text: string): void {
  tmux("send-keys", "-t", session, "-l", text);
}

async function waitForScreen(check: (text: string) => boolean, what: string, ms = 30_000): Promise<string> {
  const deadline = Date.now() + ms;
  let text = screen();
  while (!check(text)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen was:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    text = screen();
  }
  return text;
}

/** The prompt's line as drawn, `│ › …`, without the box's padding. */
function promptLine(text: string): string {
  const line = text.split("\n").findLast((candidate) => candidate.startsWith("│ › ")) ?? "";
  return line.slice(4, -1).trimEnd();
}

/** Types `text`, and once it shows, sends the key after it in a read of its own (Enter or Tab). */
async function typeThen(text: string, key: string, shown: (line: string) => boolean): Promise<void> {
  bytes(text);
  await waitForScreen((current) => promptLine(current).endsWith(text), `"${text}" to show`);
  bytes(key);
  await waitForScreen(
    (current) => shown(promptLine(current)),
    `what ${JSON.stringify(key)} after "${text}" does`,
  );
}

function lastUserMessage(): string {
  const body = model.requests.at(-1)?.body as
    { messages: Array<{ role: string; content: string }> } | undefined;
  return body?.messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(() => ({ text: "Read it." }));
  const dir = await tempDir("mcpterm-tui-mentions-");
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] } },
  });
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--no-kb", "--trust-config", "--model", "scripted", "--base-url", model.baseUrl],
  });
  tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "40", "-c", dir, command);
});

afterAll(async () => {
  try {
    tmux("kill-server");
  } catch {
    // Already gone.
  }
  await model.close();
});

describe("mentions and server prompts in the TUI's pseudo-terminal", () => {
  it("completes a mention with Tab, attaches the resource, runs a prompt, and hands back what cannot be sent", async () => {
    await waitForScreen((text) => text.includes("1/1 servers ready"), "the server");

    await typeThen("read @ev", "\t", (line) => line === "read @everything:");
    await typeThen("demo://resource/static/document/arch", "\t", (line) =>
      line.endsWith("@everything:demo://resource/static/document/architecture.md"),
    );
    await typeThen("now", "\r", (line) => line === "");
    const attached = await waitForScreen((text) => text.includes("Read it."), "the answer");
    expect(attached).toMatch(
      /⎘ @everything:demo:\/\/resource\/static\/document\/architecture\.md · text\/markdown, [\d,]+ characters/,
    );
    expect(lastUserMessage()).toMatch(
      /^read @everything:demo:\/\/resource\/static\/document\/architecture\.md now\n\n<resource server="everything" uri="demo:\/\/resource\/static\/document\/architecture\.md" mimeType="text\/markdown" trust="untrusted">\n# Everything Server/,
    );

    const requests = model.requests.length;
    await typeThen("/everything:args-prompt Paris", "\r", (line) => line === "");
    const prompted = await waitForScreen(
      (text) => text.includes("↳ from the prompt /everything:args-prompt"),
      "the prompt's turn",
    );
    expect(prompted).toContain("› What's weather in Paris?");
    await waitForScreen(() => model.requests.length > requests, "the model request");
    expect(lastUserMessage()).toBe("What's weather in Paris?");

    const sent = model.requests.length;
    bytes("see @nope:x://y");
    await waitForScreen((text) => promptLine(text) === "see @nope:x://y", "the typed message");
    bytes("\r");
    // Sent, refused with one sentence, and back in the prompt to fix.
    await waitForScreen(
      (text) =>
        text.includes(
          'There is no server named "nope" (servers: everything) for @nope:x://y; the message was not sent.',
        ) && promptLine(text) === "see @nope:x://y",
      "the notice, and the message back in the prompt",
    );
    expect(model.requests.length).toBe(sent);

    bytes("\u0003");
    await waitForScreen((text) => promptLine(text) === "", "Ctrl+C to clear the prompt");
    // Idle first: Ctrl+D during a turn asks for a second press instead of exiting.
    await waitForScreen((text) => text.includes("Ctrl+D exit"), "no turn running");
    bytes("\u0004");
    await waitForScreen((text) => text.includes("EXITED 0"), "the exit");
  });
});
