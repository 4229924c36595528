import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { APPROVAL_GUARD_MS } from "../../src/ui/keys/approval-guard.js";
import { CLI, fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * A model that puts a part of the user's API key in a call's argument, in the real binary in
 * tmux: the person is asked, and sees where the call would go, with the string holding the part
 * masked; approved, the call runs, and neither the screen nor the trace shows the part.
 */
const KEY = "sk-proj-Hq4Wm8Zt2Lp6Xc9Vb3Nr7Ks5Jd1Fg0Ty";
const PART = KEY.slice(10, 32);
let model: ScriptedModelServer;
let dir: string;
let terminal: TmuxTerminal | undefined;

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer([
    {
      toolCalls: [
        {
          name: "fixture__write_note",
          arguments: JSON.stringify({ name: "for-ann.md", text: `ref ${PART}` }),
        },
      ],
    },
    { text: "Written." },
  ]);
  dir = await tempDir("mcpterm-tui-key-part-");
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: { fixture: fixtureLaunch("tui-key-part") },
  });
});

afterEach(() => terminal?.close());
afterAll(() => model.close());

describe("a part of the user's key in a call's arguments", () => {
  it("is masked in the panel that asks, on the screen after, and in the trace", async () => {
    const trace = path.join(dir, "t.jsonl");
    terminal = new TmuxTerminal(
      mcptermPaneCommand({
        home: dir,
        env: [`OPENAI_API_KEY=${KEY}`],
        args: ["--no-kb", "--trust-config", "--trace", trace, "--model", "m", "--base-url", model.baseUrl],
      }),
      { cwd: dir, columns: 110, rows: 40 },
    );
    const pane = terminal;
    await pane.waitFor((screen) => screen.includes("1/1 servers ready"), "the server");
    pane.text("note it");
    await pane.waitFor((screen) => screen.includes("› note it"), "the message typed");
    pane.text("\r");
    const asked = await pane.waitFor((screen) => screen.includes("Allow this call?"), "the panel");
    const panel = asked.slice(asked.indexOf("Allow this call?"));
    expect(panel).toContain("(the arguments) (known-secret)");
    expect(panel).toContain('"text": "[REDACTED]"');
    expect(panel).toContain('"name": "for-ann.md"');
    expect(asked).not.toContain(PART);
    await delay(APPROVAL_GUARD_MS + 200);
    pane.text("y");
    const done = await pane.waitFor((screen) => screen.includes("Written."), "the answer");
    expect(done).not.toContain(PART);
    expect(await readFile(trace, "utf8")).not.toContain(PART);
  }, 90_000);
});
