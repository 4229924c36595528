import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";
import { CLI, fixtureLaunch, REPO_ROOT, tempDir } from "../support/fixtures.js";
import { cleanEnv } from "../support/run-cli.js";

const RECORD_LOADS = path.join(REPO_ROOT, "test/support/record-loads.mjs");

/** The built binary run with `args`; resolves with its stdout and every module URL it resolved. */
async function loadsOf(
  args: string[],
  env: Record<string, string> = {},
  config?: object,
): Promise<{ code: number | null; stdout: string; loads: string[] }> {
  const cwd = await tempDir();
  if (config) await writeFile(path.join(cwd, "mcp.config.json"), JSON.stringify(config));
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

/**
 * The loaded files of dist/ that hold code of `pkg`: esbuild bundles packages into chunks with
 * hashed names, and marks where each bundled file starts with a `// <path>` line, the path
 * relative to the project (`node_modules/zod/...`, or `../elsewhere/node_modules/zod/...` when
 * node_modules is a link).
 */
async function bundledFrom(loads: readonly string[], pkg: string): Promise<string[]> {
  const dist = loads.filter((url) => url.startsWith("file:") && url.includes("/dist/"));
  const marker = new RegExp(`^// (?:\\S*/)?node_modules/${pkg.replace("/", "\\/")}/`, "m");
  const holding = await Promise.all(
    dist.map(async (url) => (marker.test(await readFile(fileURLToPath(url), "utf8")) ? [url] : [])),
  );
  return holding.flat();
}

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

  it("-p without servers loads neither the MCP SDK nor zod; with a server it does", async () => {
    const modelEnv = { MCPTERM_MODEL: "scripted", OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-test" };
    const none = await loadsOf(["--no-kb", "-p", "hello"], modelEnv);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("ok");
    expect(await bundledFrom(none.loads, "@modelcontextprotocol/client")).toEqual([]);
    expect(await bundledFrom(none.loads, "zod")).toEqual([]);
    // A trusted server: its connection needs the SDK, so the check above can fail.
    const config = { mcpServers: { fixture: fixtureLaunch("start-up-loads") } };
    const one = await loadsOf(["--no-kb", "--trust-config", "-p", "hello"], modelEnv, config);
    expect(one.code).toBe(0);
    expect((await bundledFrom(one.loads, "@modelcontextprotocol/client")).length).toBeGreaterThan(0);
    expect((await bundledFrom(one.loads, "zod")).length).toBeGreaterThan(0);
  });

  it("-p with the knowledge base on but no knowledge folder loads no index code nor zod", async () => {
    const modelEnv = { MCPTERM_MODEL: "scripted", OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-test" };
    const run = await loadsOf(["-p", "hello"], modelEnv);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ok");
    expect(await bundledFrom(run.loads, "zod")).toEqual([]);
    expect(run.loads.filter((url) => /\/dist\/knowledge-base-[^/]*\.js$/.test(url))).toEqual([]);
  });

  it("a subcommand's help, which yargs lays out by width, loads it when it measures", async () => {
    const run = await loadsOf(["kb", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/mcpterm kb/);
    expect(run.loads.filter(fromPackage("string-width"))).toHaveLength(1);
  });

  it("a subcommand run, whose help nobody reads, neither lays it out nor loads string-width", async () => {
    const tools = await loadsOf(["tools"]);
    expect(tools.code).toBe(0);
    expect(tools.stdout).toMatch(/No MCP servers are configured/);
    expect(tools.loads.some(fromPackage("string-width"))).toBe(false);
    const stats = await loadsOf(["kb", "stats", "--json"]);
    expect(stats.stdout).toMatch(/"files"/);
    expect(stats.loads.some(fromPackage("string-width"))).toBe(false);
  });
});
