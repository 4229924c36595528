import { describe, it } from "vitest";
import { runScenario, shortOfSuccess, type Check } from "./conformance-runner.js";

/**
 * The 2025-11-25 suite (0.1.16) is kept beside the current line: its client scenarios that need
 * no OAuth, each with the checks it must report SUCCESS
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

describe("the 2025-11-25 conformance suite (0.1.16): client scenarios, OAuth aside", () => {
  // Concurrent: each scenario spends most of its time waiting on its own server and client.
  it.concurrent.for(SCENARIOS)(
    "$scenario: every check passes",
    { timeout: 60_000 },
    async (expected, { expect }) => {
      let run = await runScenario(expected.scenario, { suite: "2025" });
      if (onlySlightlyLate(run.checks)) run = await runScenario(expected.scenario, { suite: "2025" });
      const { checks, output } = run;
      const { notPassed, report } = shortOfSuccess(checks, output);
      expect(notPassed, report).toEqual([]);
      expect(
        checks.filter((check) => check.status === "SUCCESS").map((check) => check.id),
        report,
      ).toEqual(expected.checks);
    },
  );
});
