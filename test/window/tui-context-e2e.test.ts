import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_INSTRUCTIONS } from "../../src/core/agent/context-keeper.js";
import { CLI, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";
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
const marker = randomUUID();
const WINDOW = 8_192;
let model: ScriptedModelServer;
let terminal: TmuxTerminal;

/** Types a message and sends it once it shows, so Enter never arrives with the text as a paste. */
async function send(text: string): Promise<void> {
  terminal.text(text);
  await terminal.waitFor((shown) => shown.includes(`› ${text}`), `"${text}" to show`);
  terminal.keys("Enter");
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
  terminal = new TmuxTerminal(
    mcptermPaneCommand({
      home: dir,
      args: [
        "--no-kb",
        "--trust-config",
        "--max-steps",
        "20",
        "--model",
        "scripted",
        "--base-url",
        model.baseUrl,
      ],
    }),
    { cwd: dir, columns: 120, rows: 50, scrollback: 200 },
  );
});

afterAll(async () => {
  terminal.close();
  await model.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

describe("the context window in the TUI", () => {
  it("stays usable after an oversized result, compacts on /compact, counts on /stats, and runs 14 steps without a listener warning", async () => {
    await terminal.waitFor((text) => text.includes("1/1 servers ready"), "the server");
    await send("big result please");
    await terminal.waitFor((text) => text.includes("Read it all."), "the answer after the big result");
    await terminal.waitFor((text) => /ctx \d+% of 8\.2k/.test(text), "the context share on the status line");

    await send("say hello");
    await terminal.waitFor((text) => text.includes("Hello there!"), "the next turn's answer");

    await send("/compact the long result");
    await terminal.waitFor(
      (text) => text.includes("Compacted the conversation on /compact"),
      "the compaction",
    );

    await send("/stats");
    const stats = await terminal.waitFor((text) => text.includes("Fixed prompt: about"), "the stats");
    expect(stats).toContain("context window 8,192 tokens, from llama.cpp GET /props (n_ctx).");

    await send("steps please");
    const steps = await terminal.waitFor((text) => text.includes("Fourteen steps done."), "the 14-step turn");
    expect(steps).not.toContain("MaxListenersExceededWarning");
    expect(steps).not.toContain("listeners added");

    await send("/tools hide fixture");
    await terminal.waitFor(
      (text) => text.includes("The tools of fixture are no longer offered"),
      "the narrowing",
    );
    await send("say hello again");
    await terminal.waitFor(
      (text) => text.split("Hello there!").length > 2,
      "a turn without the fixture's tools",
    );
    expect(model.requests.at(-1)?.body).not.toHaveProperty("tools");

    expect(model.requests.filter((request) => request.refused)).toEqual([]);
    expect(Math.max(...model.requests.map((request) => request.promptTokens))).toBeLessThanOrEqual(WINDOW);
    // Idle first: Ctrl+D during a turn asks for a second press instead of exiting.
    await terminal.waitFor((text) => text.includes("Ctrl+D exit"), "no turn running");
    terminal.keys("C-d");
    await terminal.waitFor((text) => text.includes("EXITED 0"), "a clean exit");
  }, 120_000);
});
