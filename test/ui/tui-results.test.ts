import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, EVERYTHING_SERVER, resultsLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { mcptermPaneCommand } from "../support/tmux.js";
import { waitForNoProcesses } from "../support/process-table.js";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";

/**
 * The real binary in a pseudo-terminal (tmux) showing tool results: a result whose structured
 * content breaks its outputSchema, and server-everything's image, in the panel and the inspector.
 */
const socket = `mcpterm-results-${randomUUID().slice(0, 8)}`;
const session = "results";
const marker = randomUUID();
let model: ScriptedModelServer;

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
}

function screen(): string {
  return tmux("capture-pane", "-p", "-J", "-t", session);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls the screen until `check` passes, failing with the last screen (generous: a loaded machine is slow). */
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

/** Types a message and sends it once it shows, so Enter never arrives with the text as a paste. */
async function send(text: string): Promise<void> {
  tmux("send-keys", "-t", session, "-l", text);
  await waitForScreen((shown) => shown.includes(`› ${text}`), `"${text}" to show`);
  tmux("send-keys", "-t", session, "Enter");
}

function reply(request: { body: { messages: Array<{ role: string; content: unknown }> } }): ScriptedReply {
  const last = request.body.messages.at(-1);
  const content = typeof last?.content === "string" ? last.content : "";
  if (last?.role === "tool") return { text: content.includes("image/png") ? "Saw the image." : "Checked." };
  if (content.startsWith("image"))
    return { toolCalls: [{ name: "everything__get-tiny-image", arguments: "{}" }] };
  return { toolCalls: [{ name: "results__get_weather_wrong", arguments: "{}" }] };
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer((request) => reply(request));
  const dir = await tempDir("mcpterm-tui-results-");
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      results: resultsLaunch(marker),
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] },
    },
  });
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--no-kb", "--trust-config", "--model", "scripted", "--base-url", model.baseUrl],
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

describe("tool results in the TUI", () => {
  it("flags structured content that breaks its outputSchema, and shows it and an image's description in the inspector", async () => {
    await waitForScreen((text) => text.includes("2/2 servers ready"), "both servers");
    await send("weather please");
    const panel = await waitForScreen((text) => text.includes("Checked."), "the answer after the call");
    expect(panel).toMatch(
      /results\/get_weather_wrong[\s\S]*✓ done in[\s\S]*⚠ The structuredContent does not match/,
    );
    expect(panel).toContain('⎿ {"temperature":"warm","conditions":7}');

    tmux("send-keys", "-t", session, "C-o");
    const inspecting = await waitForScreen((text) => text.includes("Inspecting 1/1"), "the inspector");
    expect(inspecting).toContain(
      "⚠ The structuredContent does not match the tool's outputSchema in 2 places: at /temperature it must",
    );
    expect(inspecting).toContain("structured content (4 lines):");
    expect(inspecting).toContain('"temperature": "warm",');
    tmux("send-keys", "-t", session, "C-o");
    await waitForScreen((text) => !text.includes("Inspecting"), "the inspector to close");

    await send("image please");
    await waitForScreen((text) => text.includes("Saw the image."), "the answer after the image");
    expect(screen()).toContain("⎿ Here's the image you requested: (+2 lines) · image/png, 3.9 KB");
    tmux("send-keys", "-t", session, "C-o");
    const image = await waitForScreen(
      (text) => text.includes("Inspecting 2/2"),
      "the inspector on the image",
    );
    expect(image).toContain("[image: image/png, 3.9 KB; not shown to a text-only model]");
    tmux("send-keys", "-t", session, "C-o");
    await waitForScreen((text) => !text.includes("Inspecting"), "the inspector to close");

    // Idle first: Ctrl+D during a turn asks for a second press instead of exiting.
    await waitForScreen((text) => text.includes("Ctrl+D exit"), "no turn running");
    tmux("send-keys", "-t", session, "C-d");
    await waitForScreen((text) => text.includes("EXITED 0"), "a clean exit");
  }, 90_000);
});
