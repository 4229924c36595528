/**
 * The warm rounds of tool-call-bench.ts, in a process of their own: each path (the SDK's
 * `Client`, mcpterm's whole path, the same with no trace, `McpManager.callTool` alone) on its
 * own server process, one untimed round of each first, then `rounds` rounds each starting with
 * the next path, then the big results. Prints the measurements as JSON on stdout
 * (WarmMeasurements).
 *
 * tool-call-bench.ts bundles it (bench/lib/bundle.ts) and runs
 * `node <bundle> <marker> <trace folder> <calls> <rounds> <big repeats>`, having compiled the
 * fixtures and set their folder in the environment.
 */
import { performance } from "node:perf_hooks";
import { fixtureLaunch } from "../test/support/fixtures.js";
import { percentile, sortedCopy } from "./lib/stats.js";
import { managerPath, mcptermPath, sdkPath, type ToolPath } from "./lib/tool-paths.js";
import {
  BIG_SIZES,
  CALLERS,
  type Latencies,
  type Round,
  type WarmMeasurements,
  type WarmPath,
} from "./lib/warm-rounds.js";

const WARM_UP_CALLS = 50;

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
function latencies(samples: number[], wallMs: number, cpu: NodeJS.CpuUsage): Latencies {
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

async function bigResults(open: () => Promise<ToolPath>, repeats: number): Promise<number[][]> {
  const tools = await open();
  try {
    await tools.call("big", { chars: 1000 });
    const samples = BIG_SIZES.map((): number[] => []);
    for (let repeat = 0; repeat < repeats; repeat += 1) {
      for (const [index, chars] of BIG_SIZES.entries()) {
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

async function main(): Promise<WarmMeasurements> {
  const [marker, traces, calls, rounds, bigRepeats] = process.argv.slice(2);
  if (!marker || !traces || !calls || !rounds || !bigRepeats)
    throw new Error("usage: tool-call-warm.ts <marker> <trace folder> <calls> <rounds> <big repeats>");
  const launch = fixtureLaunch(marker);
  // A fresh trace each time, so every measured call pays for recording its frames (a session stops after 5,000).
  const opens: Record<WarmPath, () => Promise<ToolPath>> = {
    sdk: () => sdkPath(launch),
    mcpterm: () => mcptermPath(launch, traces),
    untraced: () => mcptermPath(launch, traces, { traced: false }),
    manager: () => managerPath(launch),
  };
  const names = Object.keys(opens) as WarmPath[];
  const measured: Record<WarmPath, Round[]> = { sdk: [], mcpterm: [], untraced: [], manager: [] };
  // One round of each path first, not counted: V8 compiles a function only after it has run many
  // times, and mcpterm's path is several times the SDK's code, so without it the early rounds
  // compare compilers at work.
  for (const name of names) await round(opens[name], Number(calls));
  // Each round starts with the next path, so none always runs first.
  for (let index = 0; index < Number(rounds); index += 1) {
    for (let offset = 0; offset < names.length; offset += 1) {
      const name = names[(index + offset) % names.length] ?? "sdk";
      measured[name].push(await round(opens[name], Number(calls)));
    }
  }
  return {
    rounds: measured,
    big: {
      sdk: await bigResults(opens.sdk, Number(bigRepeats)),
      mcpterm: await bigResults(opens.mcpterm, Number(bigRepeats)),
    },
  };
}

process.stdout.write(JSON.stringify(await main()));
