import { describe, expect, it } from "vitest";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/** The environment a shell gives every program it starts, through the real binary. */
describe("a shell's PWD", () => {
  it("is not taken for a password: the working folder is named in messages as it is", async () => {
    const cwd = await tempDir("mcpterm-pwd-");
    const run = await runCli(["replay"], { cwd, env: cleanEnv({ PWD: cwd, OLDPWD: "/tmp" }) });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `mcpterm: There are no traces in ${cwd}/.mcpterm/traces; run a session first or name a trace file.\n`,
    );
  });
});
