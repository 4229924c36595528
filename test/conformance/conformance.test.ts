import { spawn } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "vitest";
import { compiledFixture } from "../support/compiled-fixtures.js";
import { REPO_ROOT, tempDir } from "../support/fixtures.js";

const CONFORMANCE = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

/**
 * The suite's client scenarios that need no OAuth, each with the checks it must report SUCCESS
 * (besides them it reports only INFO lines, the traffic it saw).
 */
const SCENARIOS: ReadonlyArray<{ scenario: string; checks: string[] }> = [
  { scenario: "initialize", checks: ["mcp-client-initialization"] },
  { scenario: "tools_call", checks: ["tool-add-numbers"] },
  {
    scenario: "elicitation-sep1034-client-defaults",
    checks: ["string", "integer", "number", "enum", "boolean"].map(
      (kind) => `client-elicitation-sep1034-${kind}-default`,
    ),
  },
  {
    scenario: "sse-retry",
    checks: ["client-sse-graceful-reconnect", "client-sse-retry-timing", "client-sse-last-event-id"],
  },
];

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  description: string;
  errorMessage?: string;
  details?: unknown;
}

/** Runs one scenario with mcpterm's adapter as the client; returns its checks and the runner's output. */
async function runScenario(scenario: string): Promise<{ checks: Check[]; output: string }> {
  const out = await tempDir("mcpterm-conformance-");
  try {
    // The runner splits --command at spaces and appends the scenario server's URL.
    const client = `${process.execPath} ${compiledFixture("conformance-client")}`;
    if (client.split(/\s+/).length !== 2)
      throw new Error(`the conformance runner cannot start a command whose path has a space: ${client}`);
    const args = [CONFORMANCE, "client", "--command", client, "--scenario", scenario, "--output-dir", out];
    // The runner exits non-zero when a check fails; checks.json says which, so that is no error here.
    const output = await runToEnd(process.execPath, args, out);
    const [results] = await readdir(out);
    if (!results) throw new Error(`the conformance runner wrote no results:\n${output}`);
    const checks = JSON.parse(await readFile(path.join(out, results, "checks.json"), "utf8")) as Check[];
    return { checks, output };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/**
 * True when the only check short of SUCCESS is sse-retry's timing, and only because the
 * reconnection came slightly late (WARNING: past retry + 200 ms, under twice the retry). Our
 * client waits exactly the retry value (never early, which fails at once, nor with its own
 * backoff, which is at least twice as late and fails too), so a slightly late one is the machine
 * being slow to run the two processes; on a loaded machine such a run is repeated once, and that
 * run must pass outright.
 */
function onlySlightlyLate(checks: readonly Check[]): boolean {
  const short = checks.filter((check) => check.status !== "SUCCESS" && check.status !== "INFO");
  const [timing] = short;
  if (short.length !== 1 || timing?.id !== "client-sse-retry-timing" || timing.status !== "WARNING")
    return false;
  const details = timing.details as { slightlyLate?: unknown; tooEarly?: unknown; veryLate?: unknown };
  return details.slightlyLate === true && details.tooEarly === false && details.veryLate === false;
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

describe("the MCP conformance suite's client scenarios (OAuth aside), with mcpterm as the client", () => {
  // Concurrent: each scenario spends most of its time waiting on its own server and client.
  it.concurrent.for(SCENARIOS)(
    "$scenario: every check passes",
    { timeout: 60_000 },
    async (expected, { expect }) => {
      let run = await runScenario(expected.scenario);
      if (onlySlightlyLate(run.checks)) run = await runScenario(expected.scenario);
      const { checks, output } = run;
      const notPassed = checks.filter((check) => check.status !== "SUCCESS" && check.status !== "INFO");
      const report = [
        ...notPassed.map(
          (check) =>
            `${check.status} ${check.id}: ${check.errorMessage ?? check.description} ${JSON.stringify(check.details)}`,
        ),
        output,
      ].join("\n");
      expect(notPassed, report).toEqual([]);
      expect(
        checks.filter((check) => check.status === "SUCCESS").map((check) => check.id),
        report,
      ).toEqual(expected.checks);
    },
  );
});
