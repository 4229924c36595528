/**
 * A tool call on a real stdio server (the compiled fixture's `echo`), through mcpterm's whole path
 * (bench/lib/tool-paths.ts: manager, policy, argument checks, secret scan, redaction, trace)
 * against the MCP SDK's own `Client` on the same kind of process, in the same run:
 *
 * - 1,000 calls one after another, and 1,000 calls from 8 callers at once (125 each): per-call
 *   latency p50 and p99, calls per second, and the calling process's CPU time per call (which
 *   the machine's load hardly moves); rounds alternate which path goes first;
 * - one call returning 1 MB and one returning 5 MB of text (`big`), each way;
 *   both in one process of their own (tool-call-warm.ts), bundled as mcpterm ships;
 * - first, each path in a fresh process of its own (tool-call-cold.ts): its first call, and the
 *   p50 of the 1,000 after it, before V8 has compiled anything.
 *
 *   npx tsx bench/tool-call-bench.ts [--quick]
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { compileFixtures } from "../test/support/compiled-fixtures.js";
import { bundleBenchScript } from "./lib/bundle.js";
import { figureOf, type Figure, type Target } from "./lib/figures.js";
import { reapMarked } from "./lib/proc.js";
import { runSuite } from "./lib/suite.js";
import { BIG_SIZES, CALLERS, type Round, type WarmMeasurements } from "./lib/warm-rounds.js";

const run = promisify(execFile);
const SDK = "MCP SDK Client, same server and revision";

/** mcpterm-warmed: as a session makes its first call, ajv built while the model answered. */
type ColdPath = "sdk" | "mcpterm" | "mcpterm-warmed";
interface Cold {
  first: number;
  p50: number;
}

/** One path's first calls in a process of its own (tool-call-cold.ts, bundled). */
async function coldRun(
  script: string,
  name: ColdPath,
  marker: string,
  traces: string,
  calls: number,
): Promise<Cold> {
  const args = [script, name, marker, traces, String(calls + 1)];
  const { stdout } = await run(process.execPath, args, { timeout: 120_000 });
  const cold = JSON.parse(stdout) as Partial<Cold>;
  if (typeof cold.first !== "number" || typeof cold.p50 !== "number")
    throw new Error(`tool-call-cold.ts ${name} printed ${stdout.slice(0, 200)}`);
  return { first: cold.first, p50: cold.p50 };
}

/** Every path's warm rounds and big results, in a process of their own (tool-call-warm.ts, bundled). */
async function warmRun(
  script: string,
  marker: string,
  traces: string,
  { calls, rounds, bigRepeats }: { calls: number; rounds: number; bigRepeats: number },
): Promise<WarmMeasurements> {
  const args = [script, marker, traces, String(calls), String(rounds), String(bigRepeats)];
  const { stdout } = await run(process.execPath, args, { timeout: 600_000, maxBuffer: 16 * 1024 * 1024 });
  const warm = JSON.parse(stdout) as Partial<WarmMeasurements>;
  if (!warm.rounds?.sdk.length || !warm.rounds.mcpterm.length || !warm.big)
    throw new Error(`tool-call-warm.ts printed ${stdout.slice(0, 200)}`);
  return warm as WarmMeasurements;
}

await runSuite("tool-calls", { quickSeconds: 40, fullSeconds: 900 }, async ({ quick, defer }) => {
  const rounds = quick ? 1 : 5;
  const coldRounds = quick ? 1 : 3;
  const calls = quick ? 200 : 1000;
  const bigRepeats = quick ? 1 : 5;
  const fixtures = await compileFixtures();
  defer(() => rm(fixtures, { recursive: true, force: true }));
  const traces = await mkdtemp(path.join(os.tmpdir(), "mcpterm-bench-trace-"));
  defer(() => rm(traces, { recursive: true, force: true }));
  const marker = randomUUID();
  defer(() => reapMarked(marker));
  // Cold first: each path in a process of its own, each round starting with the next path.
  const coldScript = await bundleBenchScript("tool-call-cold.ts");
  const cold: Record<ColdPath, Cold[]> = { sdk: [], mcpterm: [], "mcpterm-warmed": [] };
  for (let index = 0; index < coldRounds; index += 1) {
    const paths: ColdPath[] = ["sdk", "mcpterm", "mcpterm-warmed"];
    const order = paths.map((_, offset) => paths[(index + offset) % paths.length] ?? "sdk");
    for (const name of order) cold[name].push(await coldRun(coldScript, name, marker, traces, calls));
  }
  // Then the warm rounds, bundled too: the figures with targets are those of a session past its
  // first few thousand calls, running the JavaScript mcpterm ships; the cold rows are a fresh
  // process's.
  const warm = await warmRun(await bundleBenchScript("tool-call-warm.ts"), marker, traces, {
    calls,
    rounds,
    bigRepeats,
  });
  const {
    sdk: sdkRounds,
    mcpterm: mcptermRounds,
    untraced: untracedRounds,
    manager: managerRounds,
  } = warm.rounds;
  const { sdk: sdkBig, mcpterm: mcptermBig } = warm.big;

  const row = (name: string, unit: string, pick: (round: Round) => number, target: Target): Figure =>
    figureOf({
      name,
      unit,
      samples: mcptermRounds.map(pick),
      floor: { label: SDK, samples: sdkRounds.map(pick) },
      target,
    });
  const none: Target = { kind: "none" };
  const count = calls.toLocaleString("en-US");
  return [
    row(`tool call p50, ${count} sequential`, "ms", (r) => r.sequential.p50, {
      kind: "ratio-at-most",
      value: 1.2,
    }),
    figureOf({
      name: `tool call p50, ${count} sequential, no trace`,
      unit: "ms",
      samples: untracedRounds.map((r) => r.sequential.p50),
      floor: { label: SDK, samples: sdkRounds.map((r) => r.sequential.p50) },
      target: none,
      note: "mcpterm's whole path with no trace recorder: the rest of the gap to the first row is what recording the call's seven records costs it (they are written after the request went out, but on these two cores their CPU competes with the server's)",
    }),
    figureOf({
      name: `tool call p50, ${count} sequential, McpManager.callTool alone`,
      unit: "ms",
      samples: managerRounds.map((r) => r.sequential.p50),
      floor: { label: SDK, samples: sdkRounds.map((r) => r.sequential.p50) },
      target: none,
      note: "where the rest of the path starts: the manager without policy, checks, redaction or trace",
    }),
    figureOf({
      name: "tool call, the first of a fresh process",
      unit: "ms",
      samples: cold.mcpterm.map((run) => run.first),
      floor: { label: SDK, samples: cold.sdk.map((run) => run.first) },
      target: none,
      note: "each path in a process of its own (bench/tool-call-cold.ts): nothing compiled or loaded yet, as `mcpterm call` makes its call",
    }),
    figureOf({
      name: "the same, ajv built while the model answered",
      unit: "ms",
      samples: cold["mcpterm-warmed"].map((run) => run.first),
      floor: { label: SDK, samples: cold.sdk.map((run) => run.first) },
      target: none,
      note: "as a session's first call (one-shot or TUI): a step that offers tools has the schema validator built while the model answers (SchemaValidator.warm), untimed here; a model that answers faster than that leaves some of it on the call",
    }),
    figureOf({
      name: `tool call p50, the ${count} after it`,
      unit: "ms",
      samples: cold.mcpterm.map((run) => run.p50),
      floor: { label: SDK, samples: cold.sdk.map((run) => run.p50) },
      target: none,
    }),
    row(`tool call p99, ${count} sequential`, "ms", (r) => r.sequential.p99, none),
    row(`tool calls/s, ${count} sequential`, "calls/s", (r) => r.sequential.perSecond, none),
    row(`tool call p50, ${count} from ${CALLERS} callers`, "ms", (r) => r.concurrent.p50, {
      kind: "ratio-at-most",
      value: 1.2,
    }),
    row(`tool call p99, ${count} from ${CALLERS} callers`, "ms", (r) => r.concurrent.p99, none),
    row(`CPU per tool call, ${count} sequential`, "µs", (r) => r.sequential.cpuMicros, none),
    figureOf({
      name: `CPU per tool call, ${count} sequential, no trace`,
      unit: "µs",
      samples: untracedRounds.map((r) => r.sequential.cpuMicros),
      floor: { label: SDK, samples: sdkRounds.map((r) => r.sequential.cpuMicros) },
      target: none,
    }),
    row(`CPU per tool call, ${count} from ${CALLERS} callers`, "µs", (r) => r.concurrent.cpuMicros, none),
    row(`tool calls/s, ${count} from ${CALLERS} callers`, "calls/s", (r) => r.concurrent.perSecond, none),
    ...BIG_SIZES.map((chars, index) =>
      figureOf({
        name: `tool call with a ${chars / 1_000_000} MB result`,
        unit: "ms",
        samples: mcptermBig[index] ?? [],
        floor: { label: SDK, samples: sdkBig[index] ?? [] },
        target: none,
      }),
    ),
  ];
});
