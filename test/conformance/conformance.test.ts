import { describe, it } from "vitest";
import { runScenario, shortOfSuccess, type Check } from "./conformance-runner.js";
import { AT_2026, CURRENT_LINE, type Expectation } from "./current-line.js";

/**
 * Every client scenario of the current conformance line (0.2.0-alpha.12), at its own default
 * revision, with mcpterm as the client. What each must report is in current-line.ts.
 */
describe("the conformance suite's current line: every client scenario, mcpterm as the client", () => {
  // Concurrent: each scenario spends most of its time waiting on its own server and client.
  const runs = [...CURRENT_LINE, ...AT_2026].map((entry) => ({
    ...entry,
    name: entry.specVersion ? `${entry.scenario} at ${entry.specVersion}` : entry.scenario,
  }));
  it.concurrent.for(runs)("$name", { timeout: 90_000 }, async (expected, { expect }) => {
    const run = await runScenario(expected.scenario, {
      ...(expected.specVersion ? { specVersion: expected.specVersion } : {}),
    });
    const { report } = shortOfSuccess(run.checks, run.output);
    const verdict = judge(expected.expect, run.checks, run.passed);
    expect(verdict, `${expected.scenario}: ${verdict}\n${report}`).toBe("as expected");
  });
});

/** "as expected", or what was not. */
function judge(expectation: Expectation, checks: readonly Check[], passed: boolean): string {
  const succeeded = new Set(checks.filter((check) => check.status === "SUCCESS").map((check) => check.id));
  switch (expectation.kind) {
    case "passes": {
      const missing = expectation.checks.filter((id) => !succeeded.has(id));
      if (!passed) return "the runner's verdict is FAILED";
      return missing.length === 0 ? "as expected" : `no SUCCESS for ${missing.join(", ")}`;
    }
    case "scores nothing": {
      const scored = checks.filter((check) => check.status !== "SKIPPED" && check.status !== "INFO");
      return scored.length === 0 ? "as expected" : `it scored ${scored.map((check) => check.id).join(", ")}`;
    }
    // Still failing, for the reason written down: when it passes, it moves to "passes".
    case "left":
      return passed
        ? `it passes now: move it to "passes" (it was left: ${expectation.reason})`
        : "as expected";
  }
}
