import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_INSTRUCTIONS } from "../../src/core/agent/context-keeper.js";
import { CLI, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";

/**
 * The real binary in a pseudo-terminal (tmux) against a server that behaves like llama-server
 * run with `-c 8192`: an oversized tool result, then a plain turn, /compact, /stats, and a
 * 14-step turn, whose stderr (a Node warning) would land on this screen.
 */
const socket = `mcpterm-context-${randomUUID().slice(0, 8)}`;
const session = "context";
const marker = randomUUID();
const WINDOW = 8_192;
let model: ScriptedModelServer;

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
}

function screen(): string {
  return tmux("capture-pane", "-p", "-J", "-t", session, "-S", "-200");
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitForScreen(check: (text: string) => boolean, what: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  let text = screen();
  while (!check(text)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen was:\n${text}`);
    await pause(100);
    text = screen();
  }
  return text;
}

async function send(text: string): Promise<void> {
  tmux("send-keys", "-t", session, "-l", text);
  await waitForScreen((shown) => shown.includes(`› ${text}`), `"${text}" to show`);
  tmux("send-keys", "-t", session, "Enter");
}

function reply(request: RecordedRequest): ScriptedReply {
  const messages = (request.body as { messages: Array<{ role: string; content: string | null }> }).messages;
  if ((messages[0]?.content ?? "").startsWith(SUMMARY_INSTRUCTIONS.slice(0, 40)))
    return { text: "Read a long result; said hello." };
  const last = messages.at(-1);
  const asked = messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
  if (asked.startsWith("steps")) {
    const done = messages.filter((message) => message.role === "tool").length;
    if (last?.role === "user" || done < 14)
      return {
        toolCalls: [{ name: "fixture__echo", arguments: JSON.stringify({ text: `step ${done + 1}` }) }],
      };
    return { text: "Fourteen steps done." };
  }
  if (last?.role === "tool") return { text: "Read it all." };
  if (asked.startsWith("big"))
    return { toolCalls: [{ name: "fixture__big", arguments: JSON.stringify({ chars: 200_000 }) }] };
  return { text: "Hello there!" };
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer((request) => reply(request), {
    contextWindow: WINDOW,
    models: {
      object: "list",
      data: [{ id: "scripted", owned_by: "llamacpp", meta: { n_ctx_train: 131_072 } }],
    },
    routes: { "/props": { default_generation_settings: { n_ctx: WINDOW } } },
  });
  const dir = await tempDir("mcpterm-tui-context-");
  await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { fixture: fixtureLaunch(marker) } });
  const env = [
    `PATH=${process.env.PATH ?? ""}`,
    `HOME=${dir}`,
    "NO_COLOR=1",
    "TERM=xterm-256color",
    "LANG=C.UTF-8",
  ];
  const command = `env -i ${env.map((entry) => `'${entry}'`).join(" ")} '${process.execPath}' '${CLI}' --no-kb --trust-config --max-steps 20 --model scripted --base-url '${model.baseUrl}'; echo "EXITED $?"; sleep 60`;
  tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "50", "-c", dir, command);
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

describe("the context window in the TUI", () => {
  it("stays usable after an oversized result, compacts on /compact, counts on /stats, and runs 14 steps without a listener warning", async () => {
    await waitForScreen((text) => text.includes("1/1 servers ready"), "the server");
    await send("big result please");
    await waitForScreen((text) => text.includes("Read it all."), "the answer after the big result");
    await waitForScreen((text) => /ctx \d+% of 8\.2k/.test(text), "the context share on the status line");

    await send("say hello");
    await waitForScreen((text) => text.includes("Hello there!"), "the next turn's answer");

    await send("/compact the long result");
    await waitForScreen((text) => text.includes("Compacted the conversation on /compact"), "the compaction");

    await send("/stats");
    const stats = await waitForScreen((text) => text.includes("Fixed prompt: about"), "the stats");
    expect(stats).toContain("context window 8,192 tokens (from llama.cpp GET /props (n_ctx))");

    await send("steps please");
    const steps = await waitForScreen((text) => text.includes("Fourteen steps done."), "the 14-step turn");
    expect(steps).not.toContain("MaxListenersExceededWarning");
    expect(steps).not.toContain("listeners added");

    await send("/tools hide fixture");
    await waitForScreen(
      (text) => text.includes("The tools of fixture are no longer offered"),
      "the narrowing",
    );
    await send("say hello again");
    await waitForScreen(
      (text) => text.split("Hello there!").length > 2,
      "a turn without the fixture's tools",
    );
    expect(model.requests.at(-1)?.body).not.toHaveProperty("tools");

    expect(model.requests.filter((request) => request.refused)).toEqual([]);
    expect(Math.max(...model.requests.map((request) => request.promptTokens))).toBeLessThanOrEqual(WINDOW);
    tmux("send-keys", "-t", session, "C-d");
    await waitForScreen((text) => text.includes("EXITED 0"), "a clean exit");
  }, 120_000);
});
