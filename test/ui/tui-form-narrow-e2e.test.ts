import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPROVAL_GUARD_MS } from "../../src/ui/keys/approval-guard.js";
import { CLI, EVERYTHING_SERVER, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * server-everything's form in a 40-column pseudo-terminal: a label and its value side by side
 * only when both fit, otherwise the value on its own line, wrapped by words.
 */
const marker = randomUUID();
const TOOL = "everything__trigger-elicitation-request";
let model: ScriptedModelServer;
let terminal: TmuxTerminal;

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
}

/** The form's tool once the server lists it (it adds it after it learns what the client can do). */
function reply(request: RecordedRequest): ScriptedReply {
  const body = request.body as ChatBody;
  if (body.messages.at(-1)?.role === "tool") return { text: "Thanks." };
  const offered = (body.tools ?? []).some((tool) => tool.function.name === TOOL);
  return offered ? { toolCalls: [{ name: TOOL, arguments: "{}" }] } : { text: "Not yet." };
}

/** The panel's rows as drawn, without its borders. */
function panelRows(): string[] {
  return terminal
    .rows()
    .split("\n")
    .filter((row) => row.startsWith("│"))
    .map((row) => row.replace(/^│ /, "").replace(/ *│$/, ""));
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(reply);
  const dir = await tempDir("mcpterm-tui-form-");
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      everything: {
        command: process.execPath,
        args: [EVERYTHING_SERVER, "stdio", `--marker=${marker}`],
        tiers: { "trigger-elicitation-request": "read_only" },
      },
    },
  });
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--trust-config", "--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 40, rows: 60 });
});

afterAll(async () => {
  terminal.close();
  await model.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

describe("a server's form at 40 columns", () => {
  it("puts a value under its label when both do not fit, and wraps it by words", async () => {
    // At 40 columns the status line says "1/1 srv".
    await terminal.waitFor((screen) => screen.includes("1/1 srv"), "the server");
    for (let attempt = 0; attempt < 10 && !terminal.screen().includes("asks you to fill"); attempt += 1) {
      terminal.text("form");
      await terminal.waitFor((screen) => screen.includes("› form"), "the message typed");
      terminal.text("\r");
      await terminal.waitFor(
        (screen) => screen.includes("asks you to fill") || screen.includes("Not yet."),
        "the form or the model's answer",
      );
    }
    await terminal.waitFor((screen) => screen.includes("asks you to fill"), "the form");
    // Keys count once the form has been on screen for the guard's time.
    await new Promise((resolve) => setTimeout(resolve, APPROVAL_GUARD_MS + 200));
    terminal.text("Ada Lovelace Countess of Lovelace and mathematician");
    await terminal.waitFor((screen) => screen.includes("mathematician"), "the name typed");
    const rows = panelRows();
    // Label and short value side by side; a long label alone, its value whole beneath it.
    expect(rows).toContain("  Integer: 42");
    const label = rows.indexOf("  Untitled Single Select Enum:");
    expect(label).toBeGreaterThan(0);
    expect(rows[label + 1]).toBe("    Monica");
    // The typed name wraps by words under the indent, not into the columns the label leaves.
    const name = rows.indexOf("› String *:");
    expect(rows.slice(name + 1, name + 3)).toEqual([
      "    Ada Lovelace Countess of",
      "    Lovelace and mathematician",
    ]);
  }, 90_000);
});
