import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { callTarget } from "../../src/headless/call-command.js";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";

describe("callTarget", () => {
  it.each([
    [["notes"], "notes/echo", "notes", "echo"],
    [["team/notes"], "team/notes/echo", "team/notes", "echo"],
    [["team", "team/notes"], "team/other/echo", "team", "other/echo"],
    // Nothing fits: the first split, for the sentence that lists the servers there are.
    [["other"], "team/notes/echo", "team", "notes/echo"],
    [["team/notes"], "team/notes/", "team", "notes/"],
  ])("%j with %s is %s and %s", (names, typed, server, tool) => {
    const [first = "", ...rest] = typed.split("/");
    expect(callTarget(names, { server: first, tool: rest.join("/") })).toEqual({ server, tool });
  });
});

describe("callTarget, when two servers' names start the target", () => {
  it.each([
    [["team", "team/notes"], "team/notes/echo"],
    [["a/b", "a/b/c"], "a/b/c/echo"],
  ])("%j with %s starts neither, naming both", (names, typed) => {
    const [first = "", ...rest] = typed.split("/");
    expect(() => callTarget(names, { server: first, tool: rest.join("/") })).toThrow(
      /could name tool ".+" of server ".+" or tool ".+" of server ".+"; rename one of those servers/,
    );
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

  it("starts neither server when two names start the target, and says so", async () => {
    const dir = await tempDir();
    const marks = ["team", "team-notes"].map((name) => path.join(dir, `ran-${name}`));
    const planted = (mark: string) => {
      const launch = fixtureLaunch(randomUUID());
      return {
        command: "sh",
        args: ["-c", `touch '${mark}'; exec "$0" "$@"`, launch.command, ...launch.args],
      };
    };
    await writeJson(path.join(dir, "mcp.config.json"), {
      mcpServers: { team: planted(marks[0] ?? ""), "team/notes": planted(marks[1] ?? "") },
    });
    const run = await runCli(trustingConfig(["call", "team/notes/echo", "text=hi"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '"team/notes/echo" could name tool "notes/echo" of server "team" or tool "echo" of server "team/notes"',
    );
    for (const mark of marks) expect(existsSync(mark)).toBe(false);
  });
});
