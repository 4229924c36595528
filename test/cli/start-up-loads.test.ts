import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { CLI, REPO_ROOT, tempDir } from "../support/fixtures.js";
import { cleanEnv } from "../support/run-cli.js";

const RECORD_LOADS = path.join(REPO_ROOT, "test/support/record-loads.mjs");

/** The built binary run with `args`; resolves with its stdout and every module URL it resolved. */
async function loadsOf(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; loads: string[] }> {
  const cwd = await tempDir();
  const file = path.join(cwd, "loads.txt");
  const child = spawn(process.execPath, ["--import", RECORD_LOADS, CLI, ...args], {
    cwd,
    env: cleanEnv({ ...env, MCPTERM_TEST_LOADS_FILE: file }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, loads: (await readFile(file, "utf8")).split("\n") };
}

const fromPackage = (name: string) => (url: string) => url.includes(`/node_modules/${name}/`);

let model: ScriptedModelServer;
beforeAll(async () => {
  model = await startScriptedModelServer(() => ({ text: "你好 — ok" }));
});
afterAll(() => model.close());

describe("what a command line loads", () => {
  it("-p with plain ASCII to measure never loads string-width, and still prints a wide answer", async () => {
    const run = await loadsOf(["--no-kb", "-p", "hello"], {
      MCPTERM_MODEL: "scripted",
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: "sk-test",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("你好 — ok");
    expect(run.loads.some(fromPackage("string-width"))).toBe(false);
  });

  it("-p loads no OpenTelemetry code unless export is on", async () => {
    const modelEnv = { MCPTERM_MODEL: "scripted", OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-test" };
    const telemetryCode = (url: string): boolean =>
      url.includes("/session-telemetry") || url.includes("/node_modules/@opentelemetry/");
    const off = await loadsOf(["--no-kb", "-p", "hello"], modelEnv);
    expect(off.code).toBe(0);
    expect(off.loads.filter(telemetryCode)).toEqual([]);
    // Export on (to a collector that is not there): the chunk is loaded, so the check above can fail.
    const on = await loadsOf(["--no-kb", "--otlp-endpoint", "http://127.0.0.1:9", "-p", "hello"], modelEnv);
    expect(on.code).toBe(0);
    expect(on.loads.filter(telemetryCode).length).toBeGreaterThan(0);
  });

  it("a subcommand's help, which yargs lays out by width, loads it when it measures", async () => {
    const run = await loadsOf(["kb", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/mcpterm kb/);
    expect(run.loads.filter(fromPackage("string-width"))).toHaveLength(1);
  });
});
