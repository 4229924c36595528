import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { startOtlpReceiver } from "../support/otlp-receiver.js";
import { waitFor } from "../support/poll.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { startScriptedModelServer } from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("live export from the TUI", () => {
  it("a turn reaches the collector while the session still runs, and the server saw its call's context", async () => {
    const marker = randomUUID();
    const collector = await startOtlpReceiver();
    cleanups.push(() => collector.close());
    const model = await startScriptedModelServer([
      { toolCalls: [{ id: "call-1", name: "fixture__echo", arguments: '{"text":"hello"}' }] },
      { text: "it said hello" },
    ]);
    cleanups.push(() => model.close());
    const dir = await tempDir("mcpterm-tui-otel-");
    const metaLog = path.join(dir, "meta.jsonl");
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { fixture: { ...fixtureLaunch(marker), env: { FIXTURE_META_LOG: metaLog } } },
    });
    const terminal = new TmuxTerminal(
      mcptermPaneCommand({
        home: dir,
        args: ["--no-kb", "--trust-config", "--model", "scripted", "--base-url", model.baseUrl],
        env: [
          "OPENAI_API_KEY=sk-test",
          `MCPTERM_SETTINGS_DIR=${dir}/settings`,
          "OTEL_TRACES_EXPORTER=otlp",
          `OTEL_EXPORTER_OTLP_ENDPOINT=${collector.endpoint}`,
        ],
      }),
      { cwd: dir, columns: 120, rows: 40 },
    );
    cleanups.push(() => terminal.close());
    await terminal.waitFor((screen) => screen.includes("1/1 servers ready"), "the server to be ready");
    terminal.text("say hello");
    await terminal.waitFor((screen) => screen.includes("› say hello"), "the message to show");
    terminal.keys("Enter");
    await terminal.waitFor((screen) => screen.includes("it said hello"), "the answer");

    // Live: the turn's spans arrive on the exporter's timer, with mcpterm still open.
    await waitFor(
      () => collector.spans().some((span) => span.name === "invoke_agent mcpterm"),
      "the turn's span at the collector",
    );
    expect(terminal.screen()).not.toContain("EXITED");
    const spans = collector.spans();
    const turn = spans.find((span) => span.name === "invoke_agent mcpterm");
    const execute = spans.find((span) => span.name === "execute_tool echo");
    const call = spans.find((span) => span.name === "tools/call echo");
    expect(execute?.parentSpanId).toBe(turn?.spanId);
    expect(call?.parentSpanId).toBe(execute?.spanId);
    const received = (await readFile(metaLog, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { method: string; _meta?: { traceparent?: string } });
    expect(received.find((entry) => entry.method === "tools/call")?._meta?.traceparent).toBe(
      `00-${call?.traceId}-${call?.spanId}-01`,
    );

    // Idle first: Ctrl+D during a turn asks for a second press instead of exiting.
    await terminal.waitFor((screen) => screen.includes("Ctrl+D exit"), "no turn running");
    terminal.keys("C-d");
    await terminal.waitFor((screen) => screen.includes("EXITED 0"), "mcpterm to exit");
    expect(await waitForNoProcesses(marker)).toEqual([]);
  }, 90_000);
});
