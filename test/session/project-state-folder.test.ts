import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureProjectStateFolder, writeStateGitignore } from "../../src/core/config/project-state-folder.js";
import { ConfigError } from "../../src/core/errors.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/** <cwd>/.mcpterm, where traces and sessions go: private, out of git, never through a planted link. */
async function mode(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777;
}

describe("a .gitignore the disk had no room for", () => {
  it("takes the new folder back, so the next run makes both, and says why in one sentence", async () => {
    const cwd = await tempDir("mcpterm-state-full-");
    const folder = path.join(cwd, ".mcpterm");
    await mkdir(folder, { mode: 0o700 });
    // As a full disk fails a write: the file made, nothing in it, then ENOSPC.
    const full = (file: string): void => {
      writeFileSync(file, "");
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    };
    let thrown: unknown;
    try {
      writeStateGitignore(folder, full);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toBe(
      `.mcpterm/.gitignore could not be written in ${cwd} (ENOSPC: no space left on device, write); mcpterm keeps its traces and sessions out of git with it: free some space (or fix the folder's permissions) and run again.`,
    );
    expect(await readdir(cwd)).toEqual([]);
    // With room again, the next run makes the folder and its .gitignore.
    ensureProjectStateFolder(cwd, ".mcpterm/traces");
    expect(await readFile(path.join(folder, ".gitignore"), "utf8")).toContain("*\n");
  });
});

describe("ensureProjectStateFolder", () => {
  it("makes .mcpterm and the part private, with a .gitignore that keeps all of it out of git", async () => {
    const cwd = await tempDir("mcpterm-state-");
    execFileSync("git", ["init", "-q"], { cwd });
    await writeFile(path.join(cwd, "README.md"), "hello\n");
    const made = ensureProjectStateFolder(cwd, path.join(cwd, ".mcpterm", "traces"));
    await writeFile(path.join(made, "t.jsonl"), "{}\n");

    expect(made).toBe(path.join(cwd, ".mcpterm", "traces"));
    expect(await mode(path.join(cwd, ".mcpterm"))).toBe(0o700);
    expect(await mode(made)).toBe(0o700);
    const untracked = execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], {
      cwd,
      encoding: "utf8",
    });
    expect(untracked).toBe("?? README.md\n");
  });

  it("leaves a .mcpterm that was already there without a .gitignore, and makes it private", async () => {
    const cwd = await tempDir("mcpterm-state-");
    await mkdir(path.join(cwd, ".mcpterm"), { mode: 0o755 });
    ensureProjectStateFolder(cwd, path.join(cwd, ".mcpterm", "sessions"));
    expect(await readdir(path.join(cwd, ".mcpterm"))).toEqual(["sessions"]);
    expect(await mode(path.join(cwd, ".mcpterm"))).toBe(0o700);
  });

  it("refuses a .mcpterm that is a symlink before making or chmodding anything where it leads", async () => {
    const cwd = await tempDir("mcpterm-state-");
    const outside = await tempDir("mcpterm-outside-");
    await stat(outside).then(async () => {
      const { chmod } = await import("node:fs/promises");
      await chmod(outside, 0o755);
    });
    await symlink(outside, path.join(cwd, ".mcpterm"));

    expect(() => ensureProjectStateFolder(cwd, path.join(cwd, ".mcpterm", "sessions"))).toThrow(
      new ConfigError(
        ".mcpterm is a symlink; mcpterm does not write its traces, sessions or index through a link a project may have brought — remove the link (or run mcpterm from another folder).",
      ),
    );
    expect(await readdir(outside)).toEqual([]);
    expect(await mode(outside)).toBe(0o755);
  });

  it("refuses a link one level down, a file in the way, and a folder outside the working folder", async () => {
    const cwd = await tempDir("mcpterm-state-");
    const outside = await tempDir("mcpterm-outside-");
    await mkdir(path.join(cwd, ".mcpterm"));
    await symlink(outside, path.join(cwd, ".mcpterm", "traces"));
    expect(() => ensureProjectStateFolder(cwd, path.join(cwd, ".mcpterm", "traces"))).toThrow(
      /^\.mcpterm\/traces is a symlink; /,
    );
    expect(await readdir(outside)).toEqual([]);

    await writeFile(path.join(cwd, ".mcpterm", "sessions"), "not a folder");
    expect(() => ensureProjectStateFolder(cwd, path.join(cwd, ".mcpterm", "sessions"))).toThrow(
      ".mcpterm/sessions is a file, not a folder; mcpterm keeps its state there — move the file away.",
    );
    expect(() => ensureProjectStateFolder(cwd, outside)).toThrow(/is not inside the working folder/);
  });
});

describe("a project whose .mcpterm is a symlink, through the real binary", () => {
  let model: ScriptedModelServer;
  beforeAll(async () => {
    model = await startScriptedModelServer(() => ({ text: "ok" }));
  });
  afterAll(async () => {
    await model.close();
  });

  it("-p records nothing there: exit 2 with one sentence, nothing sent, nothing written where the link leads", async () => {
    const cwd = await tempDir("mcpterm-state-cli-");
    const outside = await tempDir("mcpterm-outside-");
    await symlink(outside, path.join(cwd, ".mcpterm"));
    const env = cleanEnv({ OPENAI_BASE_URL: model.baseUrl, MCPTERM_MODEL: "scripted" });

    const run = await runCli(["--no-kb", "-p", "hello"], { cwd, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "mcpterm: .mcpterm is a symlink; mcpterm does not write its traces, sessions or index through a link a project may have brought — remove the link (or run mcpterm from another folder).\n",
    );
    expect(model.requests).toHaveLength(0);
    expect(await readdir(outside)).toEqual([]);

    // --trace names the file itself, so the session runs; still nothing where the link leads.
    const traced = await runCli(["--no-kb", "--trace", "own.jsonl", "-p", "hello"], { cwd, env });
    expect(traced.code, traced.stderr).toBe(0);
    expect(await readFile(path.join(cwd, "own.jsonl"), "utf8")).toContain('"session_start"');
    expect(await readdir(outside)).toEqual([]);
  });
});
