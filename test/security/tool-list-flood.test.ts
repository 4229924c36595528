import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { hostileLaunch } from "../support/hostile.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/** A project with a hostile server whose tool list pages `mode`, beside an ordinary server. */
async function project(marker: string, mode: "endless" | "loop"): Promise<string> {
  const dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      hostile: { ...hostileLaunch(marker, { HOSTILE_PAGES: mode }), startupTimeoutMs: 20_000 },
      fixture: fixtureLaunch(marker),
    },
  });
  return dir;
}

describe("a server whose tool list never ends", () => {
  it.each([
    ["endless", /hostile.*failed.*its tool list did not end after 100 pages; mcpterm stops there/],
    ["loop", /hostile.*failed.*its tool list loops: page 3 repeats an earlier cursor/],
  ] as const)("is marked failed with the reason (%s pages) and the others carry on", async (mode, reason) => {
    const marker = randomUUID();
    const dir = await project(marker, mode);
    const run = await runCli(trustingConfig(["tools"]), { cwd: dir, env: cleanEnv() });
    expect(run.stdout + run.stderr).toMatch(reason);
    expect(run.stdout).toMatch(/^fixture: connected/m);
    expect(run.code).toBe(4);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});
