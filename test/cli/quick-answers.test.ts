import { describe, expect, it } from "vitest";
import { parseArgs } from "../../src/args/index.js";
import { MCPTERM_VERSION } from "../../src/core/version.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

describe("mcpterm --version and --help, answered without loading the parser", () => {
  it("print exactly what the parser would", async () => {
    const cwd = await tempDir();
    const parsed = await parseArgs(["--help"], MCPTERM_VERSION);
    const help = parsed.command === "print" ? parsed.text : "";
    expect(help).toMatch(/--allow-secret-arguments/);
    for (const flag of ["--help", "-h"]) {
      const run = await runCli([flag], { cwd, env: cleanEnv() });
      expect(run).toMatchObject({ code: 0, stderr: "" });
      expect(run.stdout).toBe(`${help}\n`);
    }
    const version = await runCli(["--version"], { cwd, env: cleanEnv() });
    expect(version.stdout).toBe(`${MCPTERM_VERSION}\n`);
  });

  it("leave every other command line to the parser", async () => {
    const cwd = await tempDir();
    const tools = await runCli(["tools", "--help"], { cwd, env: cleanEnv() });
    expect(tools.code).toBe(0);
    expect(tools.stdout).toMatch(/mcpterm tools/);
    const wrong = await runCli(["--frobnicate"], { cwd, env: cleanEnv() });
    expect(wrong.code).toBe(2);
  });
});
