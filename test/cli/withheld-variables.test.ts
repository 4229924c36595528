import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

/** A server that needs a key from its environment and says so, as most do, when it is missing. */
const NEEDS_KEY =
  "if (!process.env.WEATHER_API_KEY) { console.error('Error: WEATHER_API_KEY is not set'); process.exit(1); }";
const KEY = "wk-8c1f3e9a7b2d";

describe("a server that fails for a variable the person has set but the server was not given", () => {
  it("says which one and how to pass it, without its value", async () => {
    const dir = await tempDir();
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { weather: { command: process.execPath, args: ["-e", NEEDS_KEY] } },
    });
    const run = await runCli(trustingConfig(["tools"]), {
      cwd: dir,
      env: cleanEnv({ WEATHER_API_KEY: KEY }),
    });
    expect(run.code).toBe(4);
    expect(run.stdout + run.stderr).toContain(
      'Error: WEATHER_API_KEY is not set (WEATHER_API_KEY is set in your environment, but a server gets only the variables its entry names: add "env": { "WEATHER_API_KEY": "${WEATHER_API_KEY}" } to mcpServers.weather)',
    );
    expect(run.stdout + run.stderr).not.toContain(KEY);

    // Not set for mcpterm either: the server's own sentence is the whole story.
    const unset = await runCli(trustingConfig(["tools"]), { cwd: dir, env: cleanEnv() });
    expect(unset.stdout + unset.stderr).toContain("Error: WEATHER_API_KEY is not set");
    expect(unset.stdout + unset.stderr).not.toContain("set in your environment");
  });

  it("for a server typed after --, says how to hand it over on that command line", async () => {
    const run = await runCli(trustingConfig(["tools", "--", process.execPath, "-e", NEEDS_KEY]), {
      cwd: await tempDir(),
      env: cleanEnv({ WEATHER_API_KEY: KEY }),
    });
    expect(run.stdout + run.stderr).toContain(
      'start it as -- env WEATHER_API_KEY="${WEATHER_API_KEY}" <command>',
    );
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });

  it("is said by doctor's spawn step too, for a server of the config and one typed after --", async () => {
    const dir = await tempDir();
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { weather: { command: process.execPath, args: ["-e", NEEDS_KEY] } },
    });
    const env = cleanEnv({ WEATHER_API_KEY: KEY });
    const named = await runCli(trustingConfig(["doctor", "weather"]), { cwd: dir, env });
    expect(named.stdout).toMatch(
      /✗ spawn .*WEATHER_API_KEY is not set \(WEATHER_API_KEY is set in your environment, but a server gets only the variables its entry names: add "env"/,
    );
    const typed = await runCli(["doctor", "--", process.execPath, "-e", NEEDS_KEY], { cwd: dir, env });
    expect(typed.stdout).toContain('start it as -- env WEATHER_API_KEY="${WEATHER_API_KEY}" <command>');
    expect(named.stdout + typed.stdout).not.toContain(KEY);
  });
});
