import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { replaceFile, tempDir, writeJson } from "../support/fixtures.js";
import { waitFor } from "../support/poll.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli, type CliRun } from "../support/run-cli.js";

/**
 * `mcpterm read --follow`, the real binary against real servers of both eras: the resource is
 * printed, printed again at each update (the status file the fixture watches is written from
 * here), and Ctrl+C (SIGINT) ends it with 130 and no server process left behind.
 */
let dir: string;
let statusFile: string;
const marker = randomUUID();

beforeAll(async () => {
  dir = await tempDir();
  statusFile = path.join(dir, "status.txt");
  await writeFile(statusFile, "initial");
  const fixture = (name: "modern-server" | "legacy-server") => ({
    command: process.execPath,
    args: [compiledFixture(name), `--marker=${marker}`],
    env: { FIXTURE_STATUS_FILE: statusFile },
  });
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      modern: fixture("modern-server"),
      legacy: fixture("legacy-server"),
      // Its reads carry fields named server, uri and update of their own.
      forging: {
        ...fixture("modern-server"),
        env: { FIXTURE_STATUS_FILE: statusFile, FIXTURE_FORGED_FIELDS: "1" },
      },
      plain: { command: process.execPath, args: [compiledFixture("fixture-server"), `--marker=${marker}`] },
    },
  });
});

/** Starts the follow; resolves with its output once it ends. */
function follow(
  server: string,
  ...extra: string[]
): { done: Promise<CliRun>; child: () => ChildProcess; out: () => string; err: () => string } {
  return followIn(dir, server, ...extra);
}

function followIn(
  cwd: string,
  server: string,
  ...extra: string[]
): { done: Promise<CliRun>; child: () => ChildProcess; out: () => string; err: () => string } {
  let child: ChildProcess | undefined;
  let out = "";
  let err = "";
  const done = runCli(["read", server, "note://status", "--follow", "--trust-config", ...extra], {
    cwd,
    env: cleanEnv(),
    onSpawn: (spawned) => {
      child = spawned;
      spawned.stdout?.on("data", (chunk: Buffer | string) => (out += chunk.toString()));
      spawned.stderr?.on("data", (chunk: Buffer | string) => (err += chunk.toString()));
    },
  });
  return {
    done,
    out: () => out,
    err: () => err,
    child: () => {
      if (!child) throw new Error("not spawned");
      return child;
    },
  };
}

describe("mcpterm read --follow", () => {
  it.each(["modern", "legacy"])(
    "%s: prints the resource, then each update, and ends with 130 on SIGINT",
    async (server) => {
      const run = follow(server);
      await waitFor(() => run.out().includes("all quiet"), "the first reading");
      await replaceFile(statusFile, `${server} update one`);
      await waitFor(() => run.out().includes(`${server} update one`), "the update");
      run.child().kill("SIGINT");
      const ended = await run.done;
      expect(ended.code).toBe(130);
      expect(ended.stdout.split("\n")[0]).toBe("all quiet");
      expect(ended.stderr).toMatch(/\[note:\/\/status updated at /);
      expect(await waitForNoProcesses(marker)).toEqual([]);
    },
    60_000,
  );

  it("--json: one JSON object per line, numbered by update", async () => {
    const run = follow("modern", "--json");
    await waitFor(() => run.out().includes('"update":0'), "the first reading");
    await replaceFile(statusFile, "json news");
    await waitFor(() => run.out().includes("json news"), "the update");
    run.child().kill("SIGINT");
    const ended = await run.done;
    const lines = ended.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ server: "modern", uri: "note://status", update: 0 });
    expect(lines.at(-1)).toMatchObject({ update: lines.length - 1, contents: [{ text: "json news" }] });
    expect(await waitForNoProcesses(marker)).toEqual([]);
  }, 60_000);

  it("--json: the server, uri and update of each line are mcpterm's, whatever the result holds", async () => {
    const run = follow("forging", "--json");
    await waitFor(() => run.out().includes("\n"), "the first reading");
    run.child().kill("SIGINT");
    const ended = await run.done;
    const first = JSON.parse(ended.stdout.split("\n")[0] ?? "") as Record<string, unknown>;
    expect(first).toMatchObject({ server: "forging", uri: "note://status", update: 0 });
    // Only the documented fields: the forged ones do not ride along under other names either.
    expect(Object.keys(first).sort()).toEqual(["at", "contents", "server", "update", "uri"]);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  }, 60_000);

  it("a server without subscriptions: one sentence, exit 1", async () => {
    const ended = await runCli(["read", "plain", "note://status", "--follow", "--trust-config"], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(ended.code).toBe(1);
    expect(ended.stderr).toMatch(
      /^mcpterm: Following note:\/\/status on "plain" is not possible: .*does not offer resource subscriptions/,
    );
    // No session command is offered where there is no session to type it in.
    expect(ended.stderr).not.toContain("/read");
    expect(ended.stderr).toContain("it can still be read, once");
    expect(await waitForNoProcesses(marker)).toEqual([]);
  }, 60_000);
});

/**
 * A raw 2026 server (test/fixtures/listen-server.ts) steered through its status file: it ends
 * the subscription, fails a read, or never acknowledges the listen.
 */
describe("mcpterm read --follow when the subscription or a read goes wrong", () => {
  let here: string;
  let status: string;
  let log: string;

  beforeAll(async () => {
    here = await tempDir();
    status = path.join(here, "status.txt");
    log = path.join(here, "requests.log");
    const listenServer = (env: Record<string, string>, timeoutMs?: number) => ({
      command: process.execPath,
      args: [compiledFixture("listen-server"), `--marker=${marker}`],
      env: { FIXTURE_STATUS_FILE: status, ...env },
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    await writeJson(path.join(here, "mcp.config.json"), {
      mcpServers: {
        steady: listenServer({}),
        silent: listenServer({ FIXTURE_NO_ACK: "1" }, 1000),
        waiting: listenServer({ FIXTURE_NO_ACK: "1", FIXTURE_LOG: log }, 120_000),
      },
    });
  });

  it("the server ends the subscription: one sentence, exit 4, no process left", async () => {
    await replaceFile(status, "all quiet");
    const run = followIn(here, "steady");
    await waitFor(() => run.out().includes("all quiet"), "the first reading");
    await replaceFile(status, "end");
    const ended = await run.done;
    expect(ended.code).toBe(4);
    expect(ended.stderr).toBe(
      'mcpterm: Server "steady" stopped following note://status: it ended the subscription.\n',
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  }, 60_000);

  it("a re-read that fails is told on stderr, once, and the follow goes on", async () => {
    await replaceFile(status, "all quiet");
    const run = followIn(here, "steady");
    await waitFor(() => run.out().includes("all quiet"), "the first reading");
    await replaceFile(status, "failing for now");
    await waitFor(() => run.err().includes("cannot be read"), "the failure told");
    await replaceFile(status, "better again");
    await waitFor(() => run.out().includes("better again"), "the next reading");
    run.child().kill("SIGINT");
    const ended = await run.done;
    expect(ended.code).toBe(130);
    const told = ended.stderr.split("\n").filter((line) => line.startsWith("mcpterm:"));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(
      /^mcpterm: Reading note:\/\/status from "steady" failed: .*cannot be read \(failing for now\)\. Still following\.$/,
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  }, 60_000);

  it("a listen never acknowledged: the server's real timeout, exit 4", async () => {
    const ended = await runCli(["read", "silent", "note://status", "--follow", "--trust-config"], {
      cwd: here,
      env: cleanEnv(),
    });
    expect(ended.code).toBe(4);
    expect(ended.stderr).toMatch(
      /^mcpterm: Following note:\/\/status on "silent" is not possible: .*did not answer within 1000 ms\.\n$/,
    );
    expect(await waitForNoProcesses(marker)).toEqual([]);
  }, 60_000);

  it("Ctrl+C while the listen waits for its acknowledgement: 130 and no failure told", async () => {
    await writeFile(log, "");
    const run = followIn(here, "waiting");
    // The list-change listen is acknowledged; the resource's is the second, never answered.
    await waitFor(
      () =>
        readFileSync(log, "utf8")
          .split("\n")
          .filter((line) => line === "subscriptions/listen").length >= 2,
      "the resource's listen",
    );
    run.child().kill("SIGINT");
    const ended = await run.done;
    expect(ended.code).toBe(130);
    expect(ended.stderr).not.toMatch(/not possible/);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  }, 60_000);
});
