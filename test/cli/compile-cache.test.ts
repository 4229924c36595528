import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileCacheDir } from "../../src/compile-cache-dir.js";
import { MCPTERM_VERSION } from "../../src/core/version.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/** Every file under `dir`, however deep (Node keeps one folder per Node version and flags). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

describe("the compile cache folder", () => {
  it.each([
    [{ NODE_COMPILE_CACHE: "/own", XDG_CACHE_HOME: "/xdg", HOME: "/home/a" }, "/own"],
    [{ XDG_CACHE_HOME: "/xdg", HOME: "/home/a" }, "/xdg/mcpterm/compile-cache"],
    [{ XDG_CACHE_HOME: "", HOME: "/home/a" }, "/home/a/.cache/mcpterm/compile-cache"],
    // Relative: invalid by the XDG spec, and it would put the cache in the project.
    [{ XDG_CACHE_HOME: "rel", HOME: "/home/a" }, "/home/a/.cache/mcpterm/compile-cache"],
  ])("for %j is %s", (env, dir) => {
    expect(compileCacheDir(env)).toBe(dir);
  });

  it("is filled by a run and used by the next, with the same answer", async () => {
    const cwd = await tempDir();
    const cache = path.join(cwd, "cache");
    const env = withoutCompileCache({ XDG_CACHE_HOME: cache });
    const first = await runCli(["kb", "--help"], { cwd, env });
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect((await filesUnder(path.join(cache, "mcpterm/compile-cache"))).length).toBeGreaterThan(0);
    const second = await runCli(["kb", "--help"], { cwd, env });
    expect(second).toMatchObject({ code: 0, stderr: "", stdout: first.stdout });
  });

  it("that cannot be made leaves mcpterm running uncached, saying nothing", async () => {
    const cwd = await tempDir();
    // A file where the folder should go: no user, root included, can make a folder under it.
    const blocker = path.join(cwd, "not-a-folder");
    await writeFile(blocker, "");
    const env = withoutCompileCache({ XDG_CACHE_HOME: blocker });
    expect(await runCli(["--version"], { cwd, env })).toMatchObject({
      code: 0,
      stderr: "",
      stdout: `${MCPTERM_VERSION}\n`,
    });
    const help = await runCli(["kb", "--help"], { cwd, env });
    expect(help).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toMatch(/mcpterm kb/);
  });

  it("shared by two processes starting at once, on an empty folder, serves both and the next", async () => {
    const cwd = await tempDir();
    const env = withoutCompileCache({ XDG_CACHE_HOME: path.join(cwd, "cache") });
    const both = await Promise.all([
      runCli(["kb", "--help"], { cwd, env }),
      runCli(["kb", "--help"], { cwd, env }),
    ]);
    for (const run of both) expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(both[1].stdout).toBe(both[0].stdout);
    const after = await runCli(["kb", "--help"], { cwd, env });
    expect(after).toMatchObject({ code: 0, stderr: "", stdout: both[0].stdout });
  });
});

/** cleanEnv, without the compile cache it sets for every other test: these test where it goes. */
function withoutCompileCache(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { NODE_COMPILE_CACHE: _shared, ...env } = cleanEnv(extra);
  return env;
}
