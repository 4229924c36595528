/**
 * A tool call on a real stdio server (the compiled fixture's `echo`), through mcpterm's whole path
 * (bench/lib/tool-paths.ts: manager, policy, argument checks, secret scan, redaction, trace)
 * against the MCP SDK's own `Client` on the same kind of process, in the same run:
 *
 * - 1,000 calls one after another, and 1,000 calls from 8 callers at once (125 each): per-call
 *   latency p50 and p99, calls per second, and this process's CPU time per call (which the
 *   machine's load hardly moves); rounds alternate which path goes first;
 * - one call returning 1 MB and one returning 5 MB of text (`big`), each way;
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
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { promisify } from "node:util";
import { compileFixtures } from "../test/support/compiled-fixtures.js";
import { fixtureLaunch } from "../test/support/fixtures.js";
import { figureOf, type Figure, type Target } from "./lib/figures.js";
import { reapMarked } from "./lib/proc.js";
import { percentile, sortedCopy } from "./lib/stats.js";
import { runSuite } from "./lib/suite.js";
import { managerPath, mcptermPath, sdkPath, type ToolPath } from "./lib/tool-paths.js";

const run = promisify(execFile);
const CALLERS = 8;
const WARM_UP_CALLS = 50;
const SDK = "MCP SDK Client, same server and revision";

interface Round {
  sequential: { p50: number; p99: number; perSecond: number; cpuMicros: number };
  concurrent: { p50: number; p99: number; perSecond: number; cpuMicros: number };
}

async function echo(path: ToolPath): Promise<number> {
  const started = performance.now();
  const text = await path.call("echo", { text: "x" });
  if (text !== "x") throw new Error(`echo answered ${JSON.stringify(text.slice(0, 80))}`);
  return performance.now() - started;
}

/**
 * `cpu` is this process's CPU time over the calls (process.cpuUsage): unlike latency it hardly
 * moves with the machine's load, so it tells the paths apart when other work shares the cores.
 */
function latencies(samples: number[], wallMs: number, cpu: NodeJS.CpuUsage): Round["sequential"] {
  const sorted = sortedCopy(samples);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    perSecond: (samples.length / wallMs) * 1000,
    cpuMicros: (cpu.user + cpu.system) / samples.length,
  };
}

async function round(open: () => Promise<ToolPath>, calls: number): Promise<Round> {
  const tools = await open();
  try {
    for (let call = 0; call < WARM_UP_CALLS; call += 1) await echo(tools);
    const sequential: number[] = [];
    let started = performance.now();
    let cpu = process.cpuUsage();
    for (let call = 0; call < calls; call += 1) sequential.push(await echo(tools));
    const sequentialCpu = process.cpuUsage(cpu);
    const sequentialWall = performance.now() - started;
    const concurrent: number[] = [];
    started = performance.now();
    cpu = process.cpuUsage();
    await Promise.all(
      Array.from({ length: CALLERS }, async () => {
        for (let call = 0; call < calls / CALLERS; call += 1) concurrent.push(await echo(tools));
      }),
    );
    const concurrentCpu = process.cpuUsage(cpu);
    const concurrentWall = performance.now() - started;
    return {
      sequential: latencies(sequential, sequentialWall, sequentialCpu),
      concurrent: latencies(concurrent, concurrentWall, concurrentCpu),
    };
  } finally {
    await tools.close();
  }
}

/** mcpterm-warmed: as a session makes its first call, ajv built while the model answered. */
type ColdPath = "sdk" | "mcpterm" | "mcpterm-warmed";
interface Cold {
  first: number;
  p50: number;
}
/**
 * tool-call-cold.ts bundled as mcpterm ships (one file, the packages it uses left to Node), so a
 * fresh process runs plain JavaScript: through tsx, each module would be transpiled as it loads.
 */
async function bundleColdScript(): Promise<string> {
  // Inside the repository, so Node finds the packages it left out.
  const outfile = fileURLToPath(new URL("../node_modules/.cache/bench/tool-call-cold.mjs", import.meta.url));
  await build({
    entryPoints: [fileURLToPath(new URL("./tool-call-cold.ts", import.meta.url))],
    outfile,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node22",
    logLevel: "warning",
  });
  return outfile;
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

async function bigResults(
  open: () => Promise<ToolPath>,
  sizes: number[],
  repeats: number,
): Promise<number[][]> {
  const tools = await open();
  try {
    await tools.call("big", { chars: 1000 });
    const samples = sizes.map((): number[] => []);
    for (let repeat = 0; repeat < repeats; repeat += 1) {
      for (const [index, chars] of sizes.entries()) {
        const started = performance.now();
        await tools.call("big", { chars });
        samples[index]?.push(performance.now() - started);
      }
    }
    return samples;
  } finally {
    await tools.close();
  }
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
  const launch = fixtureLaunch(marker);
  const openSdk = (): Promise<ToolPath> => sdkPath(launch);
  // A fresh trace each time, so every measured call pays for recording its frames (a session stops after 5,000).
  const openMcpterm = (): Promise<ToolPath> => mcptermPath(launch, traces);

  const opens = { sdk: openSdk, mcpterm: openMcpterm, manager: () => managerPath(launch) };
  const names = Object.keys(opens) as Array<keyof typeof opens>;
  const measured: Record<keyof typeof opens, Round[]> = { sdk: [], mcpterm: [], manager: [] };
  // Cold first: each path in a process of its own, each round starting with the next path.
  const coldScript = await bundleColdScript();
  const cold: Record<ColdPath, Cold[]> = { sdk: [], mcpterm: [], "mcpterm-warmed": [] };
  for (let index = 0; index < coldRounds; index += 1) {
    const paths: ColdPath[] = ["sdk", "mcpterm", "mcpterm-warmed"];
    const order = paths.map((_, offset) => paths[(index + offset) % paths.length] ?? "sdk");
    for (const name of order) cold[name].push(await coldRun(coldScript, name, marker, traces, calls));
  }
  // Then one round of each path in this process, not counted: V8 compiles a function only after
  // it has run many times, and mcpterm's path is several times the SDK's code, so without it the
  // early rounds compare compilers at work. The figures below are those of a session past its
  // first few thousand calls; the cold rows are a fresh process's.
  for (const name of names) await round(opens[name], calls);
  // Each round starts with the next path, so none always runs first.
  for (let index = 0; index < rounds; index += 1) {
    for (let offset = 0; offset < names.length; offset += 1) {
      const name = names[(index + offset) % names.length] ?? "sdk";
      measured[name].push(await round(opens[name], calls));
    }
  }
  const { sdk: sdkRounds, mcpterm: mcptermRounds, manager: managerRounds } = measured;
  const sizes = [1_000_000, 5_000_000];
  const sdkBig = await bigResults(openSdk, sizes, bigRepeats);
  const mcptermBig = await bigResults(openMcpterm, sizes, bigRepeats);

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
    row(`CPU per tool call, ${count} from ${CALLERS} callers`, "µs", (r) => r.concurrent.cpuMicros, none),
    row(`tool calls/s, ${count} from ${CALLERS} callers`, "calls/s", (r) => r.concurrent.perSecond, none),
    ...sizes.map((chars, index) =>
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
