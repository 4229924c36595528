/**
 * `npm run bench`: the speed suites of issue 12, each in its own process so one's memory and JIT
 * state do not colour the next, then one table of every figure beside its floor from the same
 * run, written to bench/results/table.md as well. `--quick` runs few repeats (a smoke test,
 * results under bench/results/quick, which git ignores); `--all` then runs the older
 * benchmarks too (engine-bench, kb-perf, kb-eval, text-width), which print their own figures.
 * Naming suites (`npm run bench -- startup memory`) runs only those. dist/ is rebuilt first
 * unless it is newer than the sources.
 *
 * Exits non-zero when a suite broke, never because a target was missed.
 */
import { spawnSync } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Figure } from "./lib/figures.js";
import { ensureBuilt } from "./lib/build.js";
import { BENCH_DIR, resultsDir, type SuiteResult } from "./lib/suite.js";
import { formatTable } from "./lib/table.js";

const SUITES = {
  startup: "startup-bench.ts",
  "tool-calls": "tool-call-bench.ts",
  streaming: "streaming-bench.ts",
  memory: "memory-bench.ts",
  kb: "kb-bench.ts",
} as const;
const OLDER = ["engine-bench.ts", "kb-perf.ts", "kb-eval.ts", "text-width.ts"];
/**
 * Quality measurements, run only when named (`npm run bench -- tool-search`) or with --all: they
 * print their own tables (recall, request sizes), which are not ratios against a floor's time.
 */
const QUALITY = { "tool-search": "tool-search-eval.ts" } as const;

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const named = args.filter((arg) => !arg.startsWith("--"));
const unknown = named.filter((name) => !(name in SUITES) && !(name in QUALITY));
if (unknown.length > 0) {
  console.error(
    `unknown suite ${unknown.join(", ")}; the suites are ${[...Object.keys(SUITES), ...Object.keys(QUALITY)].join(", ")}`,
  );
  process.exit(1);
}
const quality = named.filter((name): name is keyof typeof QUALITY => name in QUALITY);
const speed = named.filter((name) => name in SUITES);
const chosen = (named.length > 0 ? speed : Object.keys(SUITES)) as Array<keyof typeof SUITES>;

function runScript(script: string, extra: string[], output: "inherit" | "ignore"): boolean {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(BENCH_DIR, script), ...extra], {
    stdio: ["ignore", output, "inherit"],
  });
  if (result.status === 0) return true;
  console.error(
    `${script} failed (exit code ${String(result.status)}${result.signal ? `, ${result.signal}` : ""})`,
  );
  return false;
}

if (!ensureBuilt()) {
  console.error("npm run build failed; nothing measured");
  process.exit(1);
}
let failed = false;
// Naming only quality measurements runs none of the speed suites, and leaves their table alone.
if (chosen.length > 0) failed = !(await runSpeedSuites());

async function runSpeedSuites(): Promise<boolean> {
  const started = Date.now();
  const loadAtStart = os.loadavg();
  const dir = resultsDir(quick);
  await mkdir(dir, { recursive: true });
  let broken = false;
  const figures: Figure[] = [];
  const results: SuiteResult[] = [];
  for (const suite of chosen) {
    const file = path.join(dir, `${suite}.json`);
    // A suite that breaks must not leave an older run's figures to be read as this run's.
    await rm(file, { force: true });
    process.stdout.write(`${suite}${quick ? " (quick)" : ""} ... `);
    const suiteStarted = Date.now();
    // A suite prints its own table too; here only the combined one is shown.
    const ok = runScript(SUITES[suite], quick ? ["--quick"] : [], "ignore");
    console.log(ok ? `${Math.round((Date.now() - suiteStarted) / 1000)} s` : "FAILED");
    if (!ok) {
      broken = true;
      continue;
    }
    const result = JSON.parse(await readFile(file, "utf8")) as SuiteResult;
    results.push(result);
    figures.push(...result.figures);
  }

  const load = (values: readonly number[]): string => values.map((value) => value.toFixed(2)).join(" ");
  const heading =
    `mcpterm benchmark${quick ? " (quick: few repeats, smaller workloads)" : ""}, ${new Date(started).toISOString()}, ` +
    `node ${process.version}, ${os.cpus().length} cores, load average ${load(loadAtStart)} at the start, ` +
    `${load(os.loadavg())} at the end, ${Math.round((Date.now() - started) / 1000)} s`;
  const table = formatTable(figures);
  console.log(`\n${heading}\n\n${table}`);
  const notes = figures
    .filter((figure) => figure.note)
    .map((figure) => `- ${figure.name}: ${figure.note ?? ""}`);
  if (notes.length > 0) console.log(`\n${notes.join("\n")}`);
  await writeFile(
    path.join(dir, "table.md"),
    `${heading}\n\n${table}\n${notes.length > 0 ? `\n${notes.join("\n")}\n` : ""}`,
  );
  return !broken;
}

for (const name of args.includes("--all") ? Object.keys(QUALITY) : quality) {
  console.log(`\n== ${name}`);
  if (!runScript(QUALITY[name as keyof typeof QUALITY], [], "inherit")) failed = true;
}
if (args.includes("--all")) {
  for (const script of OLDER) {
    console.log(`\n== ${script}`);
    if (!runScript(script, [], "inherit")) failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
