import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { settingsFindings } from "../../src/core/config/settings-findings.js";
import { UserSettings } from "../../src/core/config/user-settings.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { tempDir, writeJson } from "../support/fixtures.js";

const findings = (text: string): string[] =>
  settingsFindings(text, JSON.parse(text) as Record<string, unknown>);

describe("what the user's settings hold that mcpterm does not use as written", () => {
  it.each([
    [
      '{"approval": {"auto": "dangerous"}}',
      /^approval\.auto must be a list of tiers \(the tiers are read_only, low_risk, dangerous, external\); it is ignored\.$/,
    ],
    ['{"approval": {"auto": ["dangerus"]}}', /^approval\.auto lists "dangerus", which is no tier/],
    ['{"approval": {"auto": ["DANGEROUS", 5]}}', /^approval\.auto lists "DANGEROUS", which is no tier/],
    ['{"approval": ["dangerous"]}', /^approval must be an object such as/],
    [
      '{"aproval": {"auto": ["dangerous"]}}',
      /^unknown key "aproval" at the top level is ignored; did you mean "approval"\?$/,
    ],
    [
      '{"approval": {"auto": ["dangerous"]},\n"approval": {"auto": []}}',
      /^the top level has "approval" twice \(line 1, column 2 and line 2, column 1\); keep one\.$/,
    ],
    [
      '{"approval": {"Auto": ["dangerous"]}}',
      /^unknown key "Auto" in approval is ignored; did you mean "auto"\?$/,
    ],
    ['{"approval": {"autoApprove": ["dangerous"]}}', /^unknown key "autoApprove" in approval is ignored/],
    ['{"telemetry": {"enabled": "yes"}}', /^telemetry\.enabled must be true or false; it is ignored\.$/],
    [
      '{"telemetry": {"exitFlushMs": -1}}',
      /^telemetry\.exitFlushMs must be a number of milliseconds, 0 or more/,
    ],
    [
      '{"telemetry": {"endpont": "http://localhost:4318"}}',
      /^unknown key "endpont" in telemetry is ignored; did you mean "endpoint"\?$/,
    ],
  ])("%s", (text, finding) => {
    const found = findings(text);
    expect(
      found.some((sentence) => finding.test(sentence)),
      found.join("\n"),
    ).toBe(true);
  });

  it("says nothing of settings as mcpterm writes them, or of keys it keeps without managing", () => {
    const text = JSON.stringify({
      approval: { auto: ["read_only", "dangerous"], "//": "dangerous: I review every diff" },
      trustedConfigs: { "/p/mcp.config.json": "abc" },
      allowances: {},
      telemetry: { enabled: true, headers: { "x-key": "v" }, exitFlushMs: 0 },
      editorPreferences: { theme: "dark" },
      "//": "a note of the person's own",
    });
    expect(findings(text)).toEqual([]);
  });

  it("names the file, and is told at the start of a run", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "settings.json"), '{"approval": {"auto": ["dangerus"]}}');
    expect(new UserSettings(dir, {}).findings()).toEqual([
      `${path.join(dir, "settings.json")}: approval.auto lists "dangerus", which is no tier (the tiers are read_only, low_risk, dangerous, external); it is ignored.`,
    ]);
    const project = await tempDir();
    await writeJson(path.join(project, "mcp.config.json"), { mcpServers: {} });
    const run = await runCli(["--no-kb", "-p", "hi", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"], {
      cwd: project,
      env: cleanEnv({ MCPTERM_SETTINGS_DIR: dir }),
    });
    expect(run.stderr).toContain('approval.auto lists "dangerus", which is no tier');
  });
});
