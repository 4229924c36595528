import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserSettings } from "../../src/core/config/user-settings.js";
import { ToolAllowances } from "../../src/core/policy/tool-allowances.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/** A settings file a hand edit broke: one trailing comma, and everything else the person kept there. */
const BROKEN = `{
  "approval": { "auto": ["dangerous"] },
  "telemetry": { "enabled": true, "endpoint": "http://127.0.0.1:4318" },
  "trustedConfigs": { "/work/app/mcp.config.json": "abc123" },
}
`;

async function brokenSettings(): Promise<{ folder: string; file: string }> {
  const folder = await tempDir("mcpterm-settings-");
  const file = path.join(folder, "settings.json");
  await writeFile(file, BROKEN, { mode: 0o600 });
  return { folder, file };
}

describe("a settings file mcpterm cannot read", () => {
  it("counts as empty, says why, and is never written over", async () => {
    const { folder, file } = await brokenSettings();
    const settings = new UserSettings(folder, {});
    expect(settings.problem()).toBe(`${file} is not valid JSON (at line 5 column 1)`);
    expect(settings.autoApprovedTiers()).toEqual([]);
    settings.trustConfig("/elsewhere/mcp.config.json", "def456");
    expect(
      settings.allowanceStore("/work/app").save([{ server: "fs", savedAt: "2026-12-03T00:00:00Z" }]),
    ).toBe(false);
    expect(await readFile(file, "utf8")).toBe(BROKEN);
  });

  it("an always-allow that cannot be kept for the project holds for the session", async () => {
    const { folder } = await brokenSettings();
    const allowances = new ToolAllowances(new UserSettings(folder, {}).allowanceStore("/work/app"));
    const tool = {
      server: "fs",
      name: "write_file",
      description: "Write a file.",
      tier: "dangerous" as const,
      inputSchema: { type: "object" },
    };
    allowances.allow(tool, "project");
    expect(allowances.check(tool)).toEqual({ state: "allowed", saved: false });
    // A whole server cannot be allowed for the session alone: the person is told it was not saved.
    expect(allowances.allowServer("fs")).toBe(false);
  });

  it("names where it breaks, never the text around it, which may hold a secret", async () => {
    const folder = await tempDir("mcpterm-settings-");
    const file = path.join(folder, "settings.json");
    await writeFile(file, 'Bearer sk-live-abcdefghijklmnop {"telemetry": {}}', { mode: 0o600 });
    const problem = new UserSettings(folder, {}).problem();
    // V8's own message quotes the start of the text ("Bearer sk-live-…" is not valid JSON).
    expect(problem).toBe(`${file} is not valid JSON`);
  });

  it("is said by the developer commands too, where a config trusted before now reads as untrusted", async () => {
    const { folder, file } = await brokenSettings();
    const cwd = await tempDir();
    await writeFile(
      path.join(cwd, "mcp.config.json"),
      JSON.stringify({
        mcpServers: { s: { command: process.execPath, args: ["-e", "0"], env: { T: "${HOME}" } } },
      }),
    );
    const run = await runCli(["tools"], { cwd, env: { ...cleanEnv(), MCPTERM_SETTINGS_DIR: folder } });
    expect(run.stderr).toContain(
      `warning: ${file} is not valid JSON (at line 5 column 1): your settings count as empty until it is fixed, so no config you trusted before is trusted now.\n`,
    );
    expect(run.stderr.split("is not valid JSON").length).toBe(2);
  });

  it("a named pipe in its place is refused, not waited on", async () => {
    const folder = await tempDir("mcpterm-settings-");
    const file = path.join(folder, "settings.json");
    execFileSync("mkfifo", [file]);
    expect(new UserSettings(folder, {}).problem()).toBe(
      `${file} cannot be read (it is a named pipe (FIFO), not a regular file)`,
    );
  });

  it("is a warning at the start of a run, which goes on with empty settings", async () => {
    const { folder, file } = await brokenSettings();
    const cwd = await tempDir();
    const run = await runCli(["-p", "hi", "--no-kb"], {
      cwd,
      env: {
        ...cleanEnv(),
        MCPTERM_SETTINGS_DIR: folder,
        OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
        MCPTERM_MODEL: "m",
      },
    });
    expect(run.stderr).toContain(`warning: ${file} is not valid JSON (at line 5 column 1): `);
    expect(run.stderr).toContain(
      "your settings count as empty until it is fixed (no tier runs unasked, no config is trusted, no tool always allowed), and mcpterm saves nothing over it.",
    );
    expect(await readFile(file, "utf8")).toBe(BROKEN);
  });
});
