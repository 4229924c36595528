import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { tempDir, writeJson } from "../support/fixtures.js";
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
): { done: Promise<CliRun>; child: () => ChildProcess; out: () => string } {
  let child: ChildProcess | undefined;
  let out = "";
  const done = runCli(["read", server, "note://status", "--follow", "--trust-config", ...extra], {
    cwd: dir,
    env: cleanEnv(),
    onSpawn: (spawned) => {
      child = spawned;
      spawned.stdout?.on("data", (chunk: Buffer | string) => (out += chunk.toString()));
    },
  });
  return {
    done,
    out: () => out,
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
      await writeFile(statusFile, `${server} update one`);
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
    await writeFile(statusFile, "json news");
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
    expect(await waitForNoProcesses(marker)).toEqual([]);
  }, 60_000);
});
