import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTimeout as delay } from "node:timers/promises";
import { ANSWER_GUARD_MS } from "../../src/common/cli-io.js";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { CLI, tempDir, writeJson } from "../support/fixtures.js";
import { processesMatching, waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";
import { startScriptedModelServer } from "../support/scripted-model-server.js";
import { TmuxTerminal } from "../support/tmux.js";

const marker = randomUUID();
const ESC = "\u001b";
let dir: string;
let notes: string;
let trace: string;
let recording: { code: number | null; stderr: string };

/** The session: two reads, a result holding a key and escapes, then a dangerous write; then the answer. */
const replies = [
  {
    toolCalls: [
      { id: "echo-1", name: "fixture__echo", arguments: '{"text":"hi"}' },
      { id: "sum-1", name: "fixture__sum", arguments: '{"a":2,"b":3}' },
    ],
  },
  {
    toolCalls: [
      { id: "leak-1", name: "fixture__leak", arguments: "{}" },
      { id: "write-1", name: "fixture__write_note", arguments: '{"name":"a.md","text":"x"}' },
    ],
  },
  { text: "Done." },
];

/** The fixture with one tool's behaviour changed: sum answers one too many. */
async function changedFixture(): Promise<string> {
  const source = await readFile(path.join(dir, "fixture.js"), "utf8");
  expect(source).toContain("String(a + b)");
  const changed = path.join(dir, "fixture-changed.js");
  await writeFile(changed, source.replace("String(a + b)", "String(a + b + 1)"));
  return changed;
}

beforeAll(async () => {
  dir = await tempDir();
  notes = path.join(dir, "notes");
  await mkdir(notes);
  await copyFile(compiledFixture("fixture-server"), path.join(dir, "fixture.js"));
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      fixture: {
        command: process.execPath,
        args: ["fixture.js", `--marker=${marker}`],
        env: { FIXTURE_NOTES_DIR: notes },
      },
    },
  });
  const model = await startScriptedModelServer(replies);
  trace = path.join(dir, "session.jsonl");
  try {
    // The real binary in -p mode, so the trace is the one a real session writes.
    recording = await runCli(
      [
        "-p",
        "check",
        "--trust-config",
        "--approve",
        "dangerous",
        "--model",
        "m",
        "--base-url",
        model.baseUrl,
        "--trace",
        trace,
      ],
      { cwd: dir, env: cleanEnv() },
    );
  } finally {
    await model.close();
  }
});

afterAll(async () => {
  for (const pid of processesMatching(marker)) process.kill(pid, "SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

const binary = (...args: string[]) =>
  runCli(trustingConfig(["replay", ...args]), { cwd: dir, env: cleanEnv() });
const cli = (...args: string[]) =>
  runInProcess(trustingConfig(["replay", ...args]), { cwd: dir, env: cleanEnv() });

describe("mcpterm replay of a recorded session", () => {
  it("replays an unchanged server clean and exits 0, showing no secret and no escape the result held", async () => {
    expect(recording.code).toBe(0);
    expect(existsSync(path.join(notes, "a.md"))).toBe(true);
    const run = await binary(trace, "--yes");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^✓ 1 fixture\/echo \{"text":"hi"\} {2}\(\d+ ms, recorded \d+ ms\)$/m);
    expect(run.stdout).toMatch(/^✓ 2 fixture\/sum /m);
    expect(run.stdout).toMatch(/^✓ 3 fixture\/leak /m);
    expect(run.stdout).toMatch(/^✓ 4 fixture\/write_note /m);
    expect(run.stdout).toMatch(/^4 call\(s\): 4 match, 0 differ\n$/m);
    expect(run.stdout).not.toContain(FAKE_OPENAI_KEY);
    expect(run.stdout.includes(ESC)).toBe(false);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("reports exactly the call whose tool changed, with its diff, and exits 1", async () => {
    const changed = await changedFixture();
    const run = await binary(
      trace,
      "--yes",
      "--server",
      `fixture=${process.execPath} ${changed} --marker=${marker}`,
    );
    expect(run.code).toBe(1);
    expect(run.stdout.match(/^✗ .*$/gm)).toEqual([
      expect.stringMatching(/^✗ 2 fixture\/sum \{"a":2,"b":3\}/),
    ]);
    expect(run.stdout).toMatch(/^✗ 2 fixture\/sum .*\n {2}\$\.content\[0\]\.text: "5" → "6"$/m);
    expect(run.stdout.match(/^✓ /gm)).toHaveLength(3);
    expect(run.stdout).toMatch(/^4 call\(s\): 3 match, 1 differ\n$/m);
  });

  it("exits 4 when the server's process ends during a call, telling the crash whole", async () => {
    const source = await readFile(path.join(dir, "fixture.js"), "utf8");
    const crashing = path.join(dir, "fixture-crashing.js");
    await writeFile(
      crashing,
      source.replace(
        "String(a + b)",
        "(process.stderr.write(\"TypeError: Cannot read properties of undefined (reading 'total')\\n\"), process.exit(1), '')",
      ),
    );
    const run = await binary(
      trace,
      "--yes",
      "--server",
      `fixture=${process.execPath} ${crashing} --marker=${marker}`,
    );
    expect(run.code).toBe(4);
    expect(run.stdout).toMatch(/^✓ 1 fixture\/echo /m);
    expect(run.stdout).toMatch(
      /^! 2 fixture\/sum \{"a":2,"b":3\}.*\n {4}server lost: server "fixture" exited \(code 1\)[^\n]*TypeError: Cannot read properties of undefined \(reading 'total'\)/m,
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("does not replay the dangerous call without --yes, with nobody at a terminal, and exits 1", async () => {
    await rm(path.join(notes, "a.md"));
    const run = await binary(trace);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^⊘ 4 fixture\/write_note \{"name":"a\.md","text":"x"\}\n {4}not replayed: it is dangerous \(destructiveHint\); pass --yes$/m,
    );
    expect(run.stdout).toMatch(/^4 call\(s\): 3 match, 0 differ, 1 not replayed$/m);
    expect(existsSync(path.join(notes, "a.md"))).toBe(false);
  });

  it("asks a person at a terminal about the dangerous call, as mcpterm call does, and runs it on their yes", async () => {
    await rm(path.join(notes, "a.md"), { force: true });
    const env = ["PATH", "HOME", "LANG"].map((key) => `'${key}=${process.env[key] ?? ""}'`).join(" ");
    const terminal = new TmuxTerminal(
      `env -i ${env} NO_COLOR=1 '${process.execPath}' '${CLI}' replay '${trace}' --trust-config; echo "EXITED $?"; sleep 60`,
      { cwd: dir, columns: 160, rows: 40 },
    );
    try {
      const question = await terminal.waitFor((text) => text.includes("Run it? [y/N]"), "the question");
      expect(question).toMatch(
        /fixture\/write_note \(dangerous: destructiveHint\): dangerous calls need a person's yes\. Run it\? \[y\/N\]/,
      );
      // A person reads the question first: an answer typed the moment it shows is not taken.
      // Past the guard with a margin: it starts just after the question is written, and a timer
      // counts in whole milliseconds.
      await delay(ANSWER_GUARD_MS + 100);
      terminal.text("y");
      terminal.keys("Enter");
      const done = await terminal.waitFor((text) => text.includes("EXITED"), "the end of the replay");
      expect(done).toMatch(/^4 call\(s\): 4 match, 0 differ$/m);
      expect(done).toMatch(/^EXITED 0$/m);
      expect(existsSync(path.join(notes, "a.md"))).toBe(true);
    } finally {
      terminal.close();
    }
  });

  it("ignores the JSON paths it is told to", async () => {
    const changed = await changedFixture();
    const run = await cli(
      trace,
      "--yes",
      "--server",
      `fixture=${process.execPath} ${changed}`,
      "--ignore",
      "$.content[0].text",
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^4 call\(s\): 4 match, 0 differ$/m);
  });

  it("exits 4 when a server cannot be started, naming why", async () => {
    const run = await binary(
      trace,
      "--server",
      `fixture=${process.execPath} ${path.join(dir, "missing.js")}`,
    );
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/server "fixture" could not be started: /);
    expect(run.stdout).toMatch(/^! 1 fixture\/echo .*\n {4}not replayed: server "fixture" has failed: /m);
  });

  it("prints the whole comparison as JSON with --json", async () => {
    const changed = await changedFixture();
    const run = await cli(trace, "--yes", "--json", "--server", `fixture=${process.execPath} ${changed}`);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      summary: Record<string, number>;
      calls: Array<{
        tool: string;
        status: string;
        differences: Array<{ path: string; recorded: unknown; replayed: unknown }>;
      }>;
    };
    expect(report.summary).toEqual({ match: 3, differs: 1, slow: 0, notReplayed: 0, unreachable: 0 });
    expect(report.calls.map((call) => [call.tool, call.status])).toEqual([
      ["echo", "match"],
      ["sum", "differs"],
      ["leak", "match"],
      ["write_note", "match"],
    ]);
    expect(report.calls[1]?.differences).toEqual([
      { path: "$.content[0].text", recorded: "5", replayed: "6" },
    ]);
  });
});

describe("mcpterm trace --calls", () => {
  it("prints the recorded calls as JSON lines that replay reads back, edited by hand", async () => {
    const run = await runInProcess(["trace", trace, "--calls"], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    const calls = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(calls.map((call) => [call.kind, call.server, call.tool, call.tier])).toEqual([
      ["tool", "fixture", "echo", "read_only"],
      ["tool", "fixture", "sum", "read_only"],
      ["tool", "fixture", "leak", "read_only"],
      ["tool", "fixture", "write_note", "dangerous"],
    ]);
    expect(calls[0]).toMatchObject({
      arguments: { text: "hi" },
      result: { content: [{ type: "text", text: "hi" }] },
    });
    // The escapes the leak tool sent stay in the data, written as JSON escapes, never raw.
    expect(run.stdout.includes(ESC)).toBe(false);
    expect(run.stdout).not.toContain(FAKE_OPENAI_KEY);

    const edited = path.join(dir, "edited.jsonl");
    await writeFile(edited, `${lines[0]?.replace('"text":"hi"}', '"text":"hello"}')}\n${lines[1]}\n`);
    const replay = await cli(edited);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/^replaying 2 call\(s\) from .*edited\.jsonl \(a calls file\)$/m);
    expect(replay.stdout).toMatch(
      /^✗ 1 fixture\/echo \{"text":"hello"\}.*\n {2}\$\.content\[0\]\.text: "hi" → "hello"$/m,
    );
    expect(replay.stdout).toMatch(/^✓ 2 fixture\/sum /m);
  });
});

describe("a trace that is not what mcpterm wrote", () => {
  it("skips lines that are not JSON or far too long, each kind in one sentence, and replays the rest", async () => {
    const lines = (await readFile(trace, "utf8")).trimEnd().split("\n");
    const hostile = path.join(dir, "hostile.jsonl");
    await writeFile(
      hostile,
      [
        lines[0],
        "{not json",
        `{"type":"warning","message":"${"x".repeat(9 * 1_048_576)}"}`,
        ...lines.slice(1),
        '{"type":',
      ].join("\n"),
    );
    const run = await cli(hostile, "--yes");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^note: 2 lines are not JSON \(lines 2, \d+\); skipped\.$/m);
    expect(run.stderr).toMatch(
      /^note: 1 line is longer than 8\.0 MB, which mcpterm never writes \(line 3\); skipped\.$/m,
    );
    expect(run.stdout).toMatch(/^4 call\(s\): 4 match, 0 differ$/m);
  });

  it("refuses a call to a server the config does not have, before anything starts", async () => {
    const file = path.join(dir, "elsewhere.jsonl");
    await writeFile(
      file,
      `${JSON.stringify({ kind: "tool", server: `evil${ESC}[2J`, tool: "wipe", arguments: {}, result: { content: [] } })}\n`,
    );
    const run = await cli(file, "--yes");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^mcpterm: The recording calls server "evil\\u001b\[2J", which .*mcp\.config\.json does not have \(servers: fixture\); add it there, or give --server "evil\\u001b\[2J"=<command or url>\.\n$/,
    );
    expect(run.stderr.includes(ESC)).toBe(false);
    // Run from a folder without a config: that is what it says, not that a config lacks the server.
    const elsewhere = await runCli(["replay", file, "--yes"], { cwd: await tempDir(), env: cleanEnv() });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toBe(
      `mcpterm: The recording calls server "evil\\u001b[2J", and this folder has no mcp.config.json; run mcpterm replay from the project's folder, name its config with --config, or give --server "evil\\u001b[2J"=<command or url>.\n`,
    );
  });

  it("says what is wrong with a line of a calls file, naming the line", async () => {
    const file = path.join(dir, "broken-calls.jsonl");
    await writeFile(
      file,
      `${JSON.stringify({ kind: "tool", server: "fixture", tool: "echo", arguments: { text: "hi" } })}\n`,
    );
    const run = await cli(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `mcpterm: ${file}, line 1 has no "result" (nor "error"): give what the call should answer, as mcpterm trace --calls writes it.\n`,
    );
  });

  it("never shows a secret the recording redacted, even one this run does not know", async () => {
    const file = path.join(dir, "redacted.jsonl");
    const secret = "opensesame-4f9d2c71b8";
    await writeFile(
      file,
      `${JSON.stringify({
        kind: "tool",
        server: "fixture",
        tool: "echo",
        // "pin=" is no pattern mcpterm knows: only the recording's [REDACTED] says it was a secret.
        arguments: { text: `pin=${secret}\nnew line` },
        result: { content: [{ type: "text", text: "pin=[REDACTED]\nold line" }] },
      })}\n`,
    );
    const run = await cli(file);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^ {2}\$\.content\[0\]\.text:\n {4}- 2: old line\n {4}\+ 2: new line$/m);
    expect(run.stdout).not.toContain(secret);
  });

  it("asks again about a call a person approved when it was recorded, whatever its tier", async () => {
    const file = path.join(dir, "approved.jsonl");
    await writeFile(
      file,
      `${JSON.stringify({ kind: "tool", server: "fixture", tool: "echo", arguments: { text: "hi" }, personApproved: true, result: { content: [{ type: "text", text: "hi" }] } })}\n`,
    );
    const run = await cli(file);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^ {4}not replayed: it is read_only \(readOnlyHint; a person approved it when it was recorded\); pass --yes$/m,
    );
    expect((await cli(file, "--yes")).code).toBe(0);
  });

  it("is a usage error when the file holds no calls, or is not there", async () => {
    const empty = path.join(dir, "empty.jsonl");
    await writeFile(empty, "");
    expect((await cli(empty)).stderr).toMatch(/There are no MCP calls to replay in /);
    const missing = await cli(path.join(dir, "nope.jsonl"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`mcpterm: There is no trace file at ${path.join(dir, "nope.jsonl")}.\n`);
  });
});
