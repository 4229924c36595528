import { spawn } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { REPO_ROOT, tempDir } from "../support/fixtures.js";

/**
 * The two suite versions CI runs: the current line (2026-07-28 and the 2025 revisions it still
 * covers) and 0.1.16, the 2025-11-25 suite, installed beside it under an npm alias.
 */
const SUITES = {
  current: path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js"),
  "2025": path.join(REPO_ROOT, "node_modules/conformance-2025/dist/index.js"),
} as const;

export type Suite = keyof typeof SUITES;

export interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  description: string;
  errorMessage?: string;
  details?: unknown;
}

export interface ScenarioRun {
  checks: Check[];
  /** The runner's own verdict: a check short of SUCCESS, a timeout or a refused exit code fails it. */
  passed: boolean;
  output: string;
}

export interface RunOptions {
  suite?: Suite;
  /** Runs the scenario at this revision instead of its own default (`--spec-version`). */
  specVersion?: string;
}

/** Runs one scenario with mcpterm's adapter as the client; returns its checks and the runner's output. */
export async function runScenario(scenario: string, options: RunOptions = {}): Promise<ScenarioRun> {
  const out = await tempDir("mcpterm-conformance-");
  try {
    // The runner splits --command at spaces and appends the scenario server's URL.
    const client = `${process.execPath} ${compiledFixture("conformance-client")}`;
    if (client.split(/\s+/).length !== 2)
      throw new Error(`the conformance runner cannot start a command whose path has a space: ${client}`);
    const args = [
      SUITES[options.suite ?? "current"],
      "client",
      "--command",
      client,
      "--scenario",
      scenario,
      "--output-dir",
      out,
      ...(options.specVersion ? ["--spec-version", options.specVersion] : []),
    ];
    // The runner exits non-zero when a check fails; checks.json says which, so that is no error here.
    const output = await runToEnd(process.execPath, args, out);
    // An "auth/…" scenario's results land one folder deeper, under auth/.
    const results = (await readdir(out, { recursive: true })).find(
      (file) => path.basename(file) === "checks.json",
    );
    if (!results) throw new Error(`the conformance runner wrote no results:\n${output}`);
    const checks = JSON.parse(await readFile(path.join(out, results), "utf8")) as Check[];
    return { checks, passed: /OVERALL: PASSED/.test(output), output };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** The checks short of SUCCESS (INFO lines are only traffic), and a report of them with the run's output. */
export function shortOfSuccess(
  checks: readonly Check[],
  output: string,
): { notPassed: Check[]; report: string } {
  const notPassed = checks.filter((check) => check.status !== "SUCCESS" && check.status !== "INFO");
  const report = [
    ...notPassed.map(
      (check) =>
        `${check.status} ${check.id}: ${check.errorMessage ?? check.description} ${JSON.stringify(check.details)}`,
    ),
    output,
  ].join("\n");
  return { notPassed, report };
}

/** Runs a program to its end; resolves with what it wrote, whatever its exit code. */
function runToEnd(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve(`${output}\n(the runner exited with ${signal ?? code})`));
  });
}
