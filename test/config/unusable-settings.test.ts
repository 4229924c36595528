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
    expect(settings.problem()).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is not valid JSON \\(`),
    );
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
    expect(run.stderr).toContain(`warning: ${file} is not valid JSON (`);
    expect(run.stderr).toContain(
      "your settings count as empty until it is fixed (no tier runs unasked, no config is trusted, no tool always allowed), and mcpterm saves nothing over it.",
    );
    expect(await readFile(file, "utf8")).toBe(BROKEN);
  });
});
