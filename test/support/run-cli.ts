import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CLI } from "./fixtures.js";

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** User settings for CLI tests live here, never in the developer's real config folder. */
export const TEST_SETTINGS_DIR = mkdtempSync(path.join(os.tmpdir(), "mcpterm-settings-"));

/**
 * The user's cache folder of CLI tests: a fresh one under here for every environment, so what
 * one test's run remembers (an endpoint's context window, by its port) never reaches another's.
 * Node's compile cache is shared by the worker's runs instead, so they start as fast as a user's.
 */
const TEST_CACHE_ROOT = mkdtempSync(path.join(os.tmpdir(), "mcpterm-cache-"));
let cacheFolders = 0;

/** The environment a CLI test runs in: no model variables leak in from the developer's shell. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ["PATH", "HOME", "TMPDIR", "LANG"]) if (process.env[key]) env[key] = process.env[key];
  return {
    ...env,
    NO_COLOR: "1",
    MCPTERM_SETTINGS_DIR: TEST_SETTINGS_DIR,
    XDG_CACHE_HOME: path.join(TEST_CACHE_ROOT, String((cacheFolders += 1))),
    NODE_COMPILE_CACHE: path.join(TEST_CACHE_ROOT, "compile-cache"),
    ...extra,
  };
}

/** Runs the built binary as a user would, optionally feeding stdin. */
export function runCli(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string; onSpawn?: (child: ChildProcess) => void },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: options.env });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    // A run that ends before it reads its stdin (a usage error) closes the pipe: EPIPE is expected.
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
    options.onSpawn?.(child);
  });
}

/** The commands that start a config's servers outside a session (`auth` only as `auth login`). */
const STARTING_COMMANDS = new Set([
  "tools",
  "call",
  "read",
  "resources",
  "prompts",
  "dev",
  "replay",
  "doctor",
  "auth",
]);

/**
 * `args` with --trust-config, before any `--` (what follows it is a typed server's command): for
 * a test whose project config is its own, as a person trusts their own project once.
 */
export function trustingConfig(args: readonly string[]): string[] {
  const end = args.includes("--") ? args.indexOf("--") : args.length;
  const starts = STARTING_COMMANDS.has(args[0] ?? "") && (args[0] !== "auth" || args[1] === "login");
  if (!starts || args.slice(0, end).includes("--trust-config")) return [...args];
  return [...args.slice(0, end), "--trust-config", ...args.slice(end)];
}
