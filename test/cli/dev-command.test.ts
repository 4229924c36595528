import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { copyFile, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { CLI, tempDir, writeJson } from "../support/fixtures.js";
import { processesMatching, waitForNoProcesses } from "../support/process-table.js";
import { installNotesServer, notesCommand } from "../support/notes-server.js";
import { cleanEnv, trustingConfig } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";

const marker = randomUUID();
let dir: string;
let script: string;

beforeAll(async () => {
  dir = await tempDir();
  script = path.join(dir, "server.js");
  await copyFile(compiledFixture("fixture-server"), script);
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      // The fixture starts a child that outlives it unless its whole process group is stopped.
      fixture: {
        command: process.execPath,
        args: ["server.js", `--marker=${marker}`],
        env: { FIXTURE_SPAWN_CHILD: "1" },
      },
      remote: { url: "http://127.0.0.1:9/mcp" },
    },
  });
});

afterAll(async () => {
  for (const pid of processesMatching(marker)) process.kill(pid, "SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

/** `mcpterm dev …` as a process, its stdout and stderr together; `stop` is Ctrl+C and its end. */
function startDev(args: string[]): { out: () => string; stop: () => Promise<number | null> } {
  const dev = spawn(process.execPath, [CLI, ...trustingConfig(args)], {
    cwd: dir,
    env: cleanEnv(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  dev.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  dev.stderr.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => dev.on("close", (code) => resolve(code)));
  return {
    out: () => out,
    stop: () => {
      dev.kill("SIGINT");
      return exited;
    },
  };
}

/** Polls until `check` holds; the deadline only matters when the run never gets there. */
async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("mcpterm dev", () => {
  it("restarts the server when its script changes, reports the changed tool, and leaves no process behind", async () => {
    const dev = spawn(
      process.execPath,
      [CLI, "dev", "fixture", "--call", 'sum {"a":2,"b":3}', "--trust-config"],
      {
        cwd: dir,
        env: cleanEnv(),
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let out = "";
    dev.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    dev.stderr.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    const exited = new Promise<number | null>((resolve) => dev.on("close", (code) => resolve(code)));
    try {
      // The saved call's answer is the last thing a start reports.
      await until("the first start", () => /^call sum .*\n {2}5$/m.test(out));
      expect(out).toMatch(
        /^dev: starting fixture; watching server\.js; type r and Enter to restart, Ctrl\+C to stop$/m,
      );
      expect(out).toMatch(/^dev: fixture is up in \d+ ms, pid \d+, \d+ tool\(s\)$/m);
      expect(out).toMatch(/^ {2}echo {2}\[read_only: readOnlyHint\]$/m);
      // The server's stderr, marked by server.
      expect(out).toMatch(/^\[fixture\] fixture: ready$/m);
      expect(out).toMatch(/^call sum \{"a":2,"b":3\}: ok \(\d+ ms\)\n {2}5$/m);
      const first = processesMatching(marker);
      expect(first).toHaveLength(2);

      const source = await readFile(script, "utf8");
      expect(source).toContain('"Echo the text back."');
      await writeFile(script, source.replace('"Echo the text back."', '"Echo the text back, twice."'));
      await until("the restart's report", () => out.includes("~ echo:"));
      expect(out).toMatch(/^dev: server\.js changed; restarting fixture$/m);
      expect(out).toMatch(
        /^ {2}~ echo: description changed \(an "always allow" given for it no longer holds\)$/m,
      );
      await until("the saved call after the restart", () => (out.match(/^call sum/gm) ?? []).length === 2);
      // The old server and the child it started are gone; a new pair runs.
      const now = processesMatching(marker);
      expect(now.filter((pid) => first.includes(pid))).toEqual([]);
      expect(now).toHaveLength(2);
    } finally {
      dev.kill("SIGINT");
    }
    expect(await exited).toBe(130);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("starts a server a saved call crashed again, so the calls after it and the replay still run", async () => {
    const notes = await installNotesServer(dir);
    const calls = path.join(dir, "calls.jsonl");
    await writeFile(
      calls,
      `${JSON.stringify({ kind: "tool", server: "notes", tool: "list_notes", arguments: {}, result: { content: [{ type: "text", text: "1: Rollback\n2: Release" }] } })}\n`,
    );
    const { out, stop } = startDev([
      "dev",
      "--call",
      'get_note {"id":1}',
      "--call",
      'search_notes {"query":"roll"}',
      "--call",
      "list_notes",
      "--replay",
      "calls.jsonl",
      "--",
      ...notesCommand(notes, marker, ["crash-in-handler", "slow-call"], ["AUTHOR_SLOW_MS=5600"]),
    ]);
    try {
      await until("the replay after the calls", () =>
        /^replay: 1 call\(s\): 1 match, 0 differ$/m.test(out()),
      );
      const text = out();
      expect(text).toMatch(
        /^call get_note \{"id":1\}: failed: server "notes" exited \(code 1\): TypeError: Cannot read properties of undefined \(reading 'title'\) \(at file:\/\/\/\S+\/notes\.js:\d+:\d+\)$/m,
      );
      expect(text).toMatch(/^dev: notes is down; starting it again for call search_notes$/m);
      // A call that takes long says so while it does.
      expect(text).toMatch(/^call search_notes \{"query":"roll"\}: still waiting \(5 s\)$/m);
      expect(text).toMatch(/^call search_notes \{"query":"roll"\}: ok \(\d+ ms\)\n {2}1: Rollback$/m);
      expect(text).toMatch(/^call list_notes \{\}: ok \(\d+ ms\)$/m);
    } finally {
      await stop();
    }
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("restarts at once on a change while a saved call hangs, cancelling the call", async () => {
    const notes = await installNotesServer(dir);
    const { out, stop } = startDev([
      "dev",
      "--call",
      'search_notes {"query":"roll"}',
      "--",
      ...notesCommand(notes, marker, ["slow-call"], ["AUTHOR_SLOW_MS=120000"]),
    ]);
    try {
      await until("the first start's lint", () => /^lint: /m.test(out()));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The fix for a hung handler, saved: the restart must not wait for the hung call.
      await writeFile(notes, `${await readFile(notes, "utf8")}\n`);
      await until("the restart", () => /^dev: notes\.js changed; restarting notes$/m.test(out()), 15_000);
      expect(out()).toMatch(/^call search_notes \{"query":"roll"\}: failed: .*cancel/m);
      await until("the second start", () => out().split("is up in").length === 3, 15_000);
    } finally {
      await stop();
    }
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("names every outputSchema mismatch of a saved call, and each line of junk on stdout", async () => {
    const notes = await installNotesServer(dir);
    const { out, stop } = startDev([
      "dev",
      "--call",
      'get_note {"id":1}',
      "--",
      ...notesCommand(notes, marker, ["output-mismatch", "stdout-junk"]),
    ]);
    try {
      await until("the saved call", () => /^ {2}Rollback$/m.test(out()));
      expect(out()).toMatch(
        /^call get_note \{"id":1\}: ok, but the result breaks its outputSchema in 3 place\(s\) \(\d+ ms\)\n {2}⚠ at the top level: it must have required property 'body'\n {2}⚠ at \/id: it must be integer\n {2}⚠ at \/title: it must be string$/m,
      );
      expect(out()).toContain(
        'warning: server "notes" wrote to stdout, which is for JSON-RPC only (log to stderr): "debug: looking up note 1"\n',
      );
    } finally {
      await stop();
    }
  });

  it("says what to watch when the server's command line names no file", async () => {
    const run = await runInProcess(trustingConfig(["dev", "remote"]), { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'mcpterm: The command line of "remote" (http://127.0.0.1:9/mcp) names no file to watch; give one with --watch <file or folder>.\n',
    );
  });
});
