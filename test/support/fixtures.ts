import { mkdtemp, rename, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerConfig } from "../../src/core/config/index.js";
import { compiledFixture } from "./compiled-fixtures.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CLI = path.join(REPO_ROOT, "dist/cli.js");
/** The bundled fetch server as built into dist/ (npm test builds before it runs vitest). */
export const FETCH_SERVER = path.join(REPO_ROOT, "dist/servers/fetch/fetch-server.js");
export const EVERYTHING_SERVER = path.join(
  REPO_ROOT,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

/** A fresh temp folder for one test. */
export function tempDir(prefix = "mcpterm-test-"): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/** Launches the compiled fixture server; `marker` lets a test find the process in the process table. */
export function fixtureLaunch(marker: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [compiledFixture("fixture-server"), `--marker=${marker}`] };
}

/** Launches the compiled results server (structured content, outputSchema, images and audio). */
export function resultsLaunch(marker: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [compiledFixture("results-server"), `--marker=${marker}`] };
}

/** Launches the compiled deep server (a result nested 100,000 levels deep); `marker` as above. */
export function deepLaunch(marker: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [compiledFixture("deep-server"), `--marker=${marker}`] };
}

/** Launches the compiled catalog server (resources and prompts that misbehave); `marker` as above. */
export function catalogLaunch(marker: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [compiledFixture("catalog-server"), `--marker=${marker}`] };
}

/** Launches the compiled tool-catalog server on a catalog file (see test/fixtures/tool-catalog-server.ts). */
export function toolCatalogLaunch(catalogFile: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [compiledFixture("tool-catalog-server"), catalogFile] };
}

/** A ServerConfig with the loader's defaults, for tests that build the manager directly. */
export function serverConfig(name: string, overrides: Partial<ServerConfig>): ServerConfig {
  return {
    name,
    transport: "stdio",
    args: [],
    env: {},
    cwd: REPO_ROOT,
    headers: {},
    timeoutMs: 10_000,
    maxCallMs: 600_000,
    startupTimeoutMs: 15_000,
    disabled: false,
    trust: false,
    includeTools: [],
    excludeTools: [],
    tiers: {},
    ...overrides,
  };
}

export async function writeJson(file: string, value: unknown): Promise<string> {
  await writeFile(file, JSON.stringify(value, null, 2));
  return file;
}

let replacements = 0;

/**
 * Writes `text` over `file` in one step: into a sibling first, then renamed over it. A fixture
 * server that polls its status file (watchFile) sees the old text or the new one, never the
 * empty file a plain writeFile leaves between its truncate and its write: read then, the status
 * became "" and subscribers were told of that "update" before the real one.
 */
export async function replaceFile(file: string, text: string): Promise<void> {
  const next = `${file}.${process.pid}.${(replacements += 1)}`;
  await writeFile(next, text);
  await rename(next, file);
}
