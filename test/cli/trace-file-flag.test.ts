import { existsSync } from "node:fs";
import { execFileSync, spawn } from "node:child_process";
import { link, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/**
 * `--trace <file>` as a script writes it in a checked-out repository: a name the repository
 * made a link to a file of the user's is refused, a name that cannot be written is a usage
 * error naming the flag, and a disk that fills up mid-run costs the trace, not the answer.
 */
let model: ScriptedModelServer;
beforeAll(async () => {
  model = await startScriptedModelServer(() => ({ text: "the answer" }));
});
afterAll(() => model.close());

const ask = (cwd: string, trace: string) =>
  runCli(["-p", "x", "--trace", trace, "--model", "m", "--base-url", model.baseUrl, "--no-kb"], {
    cwd,
    env: cleanEnv(),
  });

describe("--trace <file>", () => {
  it("refuses a name that is a link to a file, and writes nothing through it (exit 2)", async () => {
    const dir = await tempDir();
    const bashrc = path.join(dir, "bashrc");
    await writeFile(bashrc, "alias ll='ls -l'\n", { mode: 0o644 });
    await symlink(bashrc, path.join(dir, "ci-trace.jsonl"));
    const run = await ask(dir, "ci-trace.jsonl");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "mcpterm: --trace ci-trace.jsonl: ci-trace.jsonl is a symlink; mcpterm does not write a trace through a link a project may have brought — name the file itself.\n",
    );
    expect(await readFile(bashrc, "utf8")).toBe("alias ll='ls -l'\n");
    expect((await stat(bashrc)).mode & 0o777).toBe(0o644);
  });

  it("refuses a link to nothing yet, which would make the file it names", async () => {
    const dir = await tempDir();
    await symlink(path.join(dir, "authorized_keys"), path.join(dir, "t.jsonl"));
    expect((await ask(dir, "t.jsonl")).code).toBe(2);
    expect(existsSync(path.join(dir, "authorized_keys"))).toBe(false);
  });

  it("refuses a file with other names (a hard link), and writes nothing to it", async () => {
    const dir = await tempDir();
    const bashrc = path.join(dir, "bashrc");
    await writeFile(bashrc, "# my bashrc\n");
    await link(bashrc, path.join(dir, "ci-trace.jsonl"));
    const run = await ask(dir, "ci-trace.jsonl");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/ci-trace\.jsonl has other names \(hard links\)/);
    expect(await readFile(bashrc, "utf8")).toBe("# my bashrc\n");
  });

  it("writes to /dev/stderr when stderr is a file, as a script redirects it", async () => {
    const dir = await tempDir();
    const command = [
      CLI,
      "-p",
      "x",
      "--trace",
      "/dev/stderr",
      "--model",
      "m",
      "--base-url",
      model.baseUrl,
      "--no-kb",
    ]
      .map((word) => `'${word}'`)
      .join(" ");
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn("sh", ["-c", `'${process.execPath}' ${command} > out.txt 2> err.log`], {
        cwd: dir,
        env: cleanEnv(),
      });
      child.on("close", resolve);
    });
    expect(code).toBe(0);
    expect(await readFile(path.join(dir, "err.log"), "utf8")).toContain('"type":"session_start"');
  });

  it("refuses a file in a folder that is a link out of the project", async () => {
    const dir = await tempDir();
    const elsewhere = await tempDir();
    await writeFile(path.join(elsewhere, "trace.jsonl"), "precious\n");
    await symlink(elsewhere, path.join(dir, "logs"));
    const run = await ask(dir, "logs/trace.jsonl");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/logs\/trace\.jsonl is in a folder that is a link out of the project/);
    expect(await readFile(path.join(elsewhere, "trace.jsonl"), "utf8")).toBe("precious\n");
  });

  it("refuses a named pipe at once instead of waiting for a reader", async () => {
    const dir = await tempDir();
    execFileSync("mkfifo", [path.join(dir, "fifo.jsonl")]);
    const run = await ask(dir, "fifo.jsonl");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/fifo\.jsonl is a named pipe/);
  });

  it("says a folder cannot be written in one sentence naming the flag (exit 2)", async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, "traces"));
    const run = await ask(dir, "traces");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "mcpterm: --trace traces: traces is a folder; --trace names a file to write, such as .mcpterm/traces/run.jsonl.\n",
    );
    // The project's own folder too, which no link leads out of.
    const here = await ask(dir, ".");
    expect(here.code).toBe(2);
    expect(here.stderr).toBe(
      "mcpterm: --trace .: . is a folder; --trace names a file to write, such as .mcpterm/traces/run.jsonl.\n",
    );
  });

  it("goes on without the trace when the disk is full, and says so once", async () => {
    const run = await ask(await tempDir(), "/dev/full");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("the answer\n");
    expect(run.stderr).toMatch(
      /^warning: The trace could not be written to \/dev\/full \(.*ENOSPC.*\); the session goes on without it\.$/m,
    );
    expect(run.stderr.match(/could not be written/g)).toHaveLength(1);
  });

  it("still writes through a link to a device or a pipe (as /dev/stderr is one)", async () => {
    const dir = await tempDir();
    await symlink("/dev/null", path.join(dir, "quiet.jsonl"));
    const run = await ask(dir, "quiet.jsonl");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });
});
