import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { CLI, fixtureLaunch, tempDir, writeJson } from "./fixtures.js";
import { waitForNoProcesses } from "./process-table.js";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
  type RecordedRequest,
} from "./scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "./tmux.js";

/** The built TUI in a tmux pane, in a project whose one server is the fixture, on a scripted model. */
export interface FixtureTui {
  model: ScriptedModelServer;
  terminal: TmuxTerminal;
  /** Closes the pane and the model, and checks no fixture server outlived mcpterm. */
  close(): Promise<void>;
}

export async function openFixtureTui(
  name: string,
  reply: (request: RecordedRequest) => ScriptedReply,
  size: { columns: number; rows: number; scrollback?: number },
): Promise<FixtureTui> {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  const marker = randomUUID();
  const model = await startScriptedModelServer(reply);
  const dir = await tempDir(`mcpterm-tui-${name}-`);
  await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { fixture: fixtureLaunch(marker) } });
  const command = mcptermPaneCommand({
    home: dir,
    args: ["--trust-config", "--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
  });
  const terminal = new TmuxTerminal(command, { cwd: dir, ...size });
  return {
    model,
    terminal,
    close: async () => {
      terminal.close();
      await model.close();
      expect(await waitForNoProcesses(marker)).toEqual([]);
    },
  };
}

/** How often `text` occurs in `screen`. */
export const countIn = (screen: string, text: string): number => screen.split(text).length - 1;
