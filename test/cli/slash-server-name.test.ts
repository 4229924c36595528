import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { callTarget } from "../../src/headless/call-command.js";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

describe("callTarget", () => {
  it.each([
    [["notes"], "notes/echo", "notes", "echo"],
    [["team/notes"], "team/notes/echo", "team/notes", "echo"],
    // A server named as the first part wins, as before: its tool may hold a slash.
    [["team", "team/notes"], "team/notes/echo", "team", "notes/echo"],
    [["a/b", "a/b/c"], "a/b/c/echo", "a/b/c", "echo"],
    // Nothing fits: the first split, for the sentence that lists the servers there are.
    [["other"], "team/notes/echo", "team", "notes/echo"],
    [["team/notes"], "team/notes/", "team", "notes/"],
  ])("%j with %s is %s and %s", (names, typed, server, tool) => {
    const [first = "", ...rest] = typed.split("/");
    expect(callTarget(names, { server: first, tool: rest.join("/") })).toEqual({ server, tool });
  });
});

describe("mcpterm call <server>/<tool> where the server's name holds a slash", () => {
  it("calls that server's tool, and --json names it whole", async () => {
    const dir = await tempDir();
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { "team/notes": fixtureLaunch(randomUUID()) },
    });
    const run = await runCli(trustingConfig(["call", "team/notes/echo", "text=hi"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.stderr).not.toContain("no server");
    expect(run.stdout).toBe("hi\n");
    expect(run.code).toBe(0);
    const json = await runCli(trustingConfig(["call", "team/notes/echo", "text=hi", "--json"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(JSON.parse(json.stdout)).toMatchObject({ server: "team/notes", tool: "echo", isError: false });
    const missing = await runCli(trustingConfig(["call", "team/other/echo", "--json"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('There is no server named "team" in');
    expect(JSON.parse(missing.stdout)).toMatchObject({
      server: "team",
      tool: "other/echo",
      failure: "invalid_args",
    });
  });
});
