import { randomUUID } from "node:crypto";
import { syncRecordRedaction } from "../../src/core/policy/redacted-json.js";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { TraceRecorder } from "../../src/core/trace/trace-recorder.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { catalogLaunch, serverConfig, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, trustingConfig } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";

const marker = randomUUID();
let dir: string;
let trace: string;

/** Reads and prompt gets reach a trace as wire frames, as the TUI's @-mentions, /read and prompts make them. */
beforeAll(async () => {
  dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), { mcpServers: { catalog: catalogLaunch(marker) } });
  trace = path.join(dir, "reads.jsonl");
  const recorder = TraceRecorder.open({
    file: trace,
    dir,
    redaction: syncRecordRedaction((text) => text),
    model: "m",
    servers: ["catalog"],
    cwd: dir,
  });
  const manager = new McpManager([serverConfig("catalog", catalogLaunch(marker))], {
    parentEnv: process.env,
    onWire: recorder.wire,
  });
  try {
    await manager.start();
    const catalog = manager.connection("catalog");
    await catalog?.readResource("catalog://notes/alpha");
    await catalog?.readResource("catalog://notes/zeta").catch(() => undefined);
    await catalog?.getPrompt("review", { note: "beta" });
    await catalog?.readResource("catalog://leak");
  } finally {
    await manager.close();
    recorder.close();
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  runInProcess(trustingConfig(["replay", ...args]), { cwd: dir, env: cleanEnv() });

describe("mcpterm replay of resource reads and prompt gets", () => {
  it("replays each read, the read that failed and the prompt get, in order, and they match", async () => {
    const run = await cli(trace);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.match(/^[✓✗⊘!] .*$/gm)).toEqual([
      expect.stringMatching(/^✓ 1 catalog read catalog:\/\/notes\/alpha {2}\(\d+ ms, recorded \d+ ms\)$/),
      expect.stringMatching(/^✓ 2 catalog read catalog:\/\/notes\/zeta /),
      expect.stringMatching(/^✓ 3 catalog prompt review \{"note":"beta"\} /),
      expect.stringMatching(/^✓ 4 catalog read catalog:\/\/leak /),
    ]);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("compares an error by its JSON-RPC code and message, and a changed read by its contents", async () => {
    const listed = await runInProcess(["trace", trace, "--calls"], {
      cwd: dir,
      env: cleanEnv(),
    });
    const lines = listed.stdout.trimEnd().split("\n");
    expect(JSON.parse(lines[1] ?? "")).toMatchObject({
      kind: "resource",
      uri: "catalog://notes/zeta",
    });
    expect(JSON.parse(lines[1] ?? "")).toMatchObject({ error: { code: -32603 } });
    expect(lines[1]).toContain("no note named zeta");
    // What a file someone wrote by hand claims: the read of alpha answered otherwise, zeta exists.
    const edited = path.join(dir, "edited.jsonl");
    const alpha = (lines[0] ?? "").replace("The alpha note.", "The first note.");
    const zeta = JSON.stringify({
      kind: "resource",
      server: "catalog",
      uri: "catalog://notes/zeta",
      result: { contents: [] },
    });
    await writeFile(edited, `${alpha}\n${zeta}\n`);
    const run = await cli(edited);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^ {2}\$\.contents\[0\]\.text:\n {4}- 3: The first note\.\n {4}\+ 3: The alpha note\.$/m,
    );
    expect(run.stdout).toMatch(
      /^ {2}\$\.error: new, \{"failure":"business","code":-?\d+,"message":"no note named zeta"\}$/m,
    );
    expect(run.stdout).toMatch(/^ {2}\$\.contents: gone, was \[\]$/m);
    expect(run.stdout).not.toContain(FAKE_OPENAI_KEY);
    expect(await readFile(edited, "utf8")).not.toContain(FAKE_OPENAI_KEY);
  });
});
