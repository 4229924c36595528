import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Figure } from "./figures.js";
import { formatTable } from "./table.js";

export const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const REPO_ROOT = path.resolve(BENCH_DIR, "..");

/** What one suite wrote to bench/results: its figures with the raw samples, and the machine's load. */
export interface SuiteResult {
  suite: string;
  quick: boolean;
  startedAt: string;
  seconds: number;
  node: string;
  cpus: number;
  /** os.loadavg() (1, 5, 15 minutes) as the suite started and ended: how busy the machine was. */
  load: { start: number[]; end: number[] };
  figures: Figure[];
}

export interface SuiteContext {
  quick: boolean;
  /** Runs at the end, on every path including the time limit, last registered first. */
  defer: (cleanup: () => unknown) => void;
}

/** Full runs are committed as the latest results; quick runs (a smoke test) go where git ignores them. */
export function resultsDir(quick: boolean): string {
  return path.join(BENCH_DIR, "results", ...(quick ? ["quick"] : []));
}

/**
 * Runs one suite: its figures go to bench/results/<name>.json and its own table to stdout.
 * Exits non-zero only when something broke (a process failed, a wait timed out, the time limit
 * passed), never because a target was missed.
 */
export async function runSuite(
  name: string,
  limits: { quickSeconds: number; fullSeconds: number },
  measure: (context: SuiteContext) => Promise<Figure[]>,
): Promise<void> {
  const quick = process.argv.includes("--quick");
  const started = Date.now();
  const loadAtStart = os.loadavg();
  const cleanups: Array<() => unknown> = [];
  const cleanUp = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.error(`${name}: cleanup failed: ${String(error)}`);
      }
    }
  };
  const seconds = quick ? limits.quickSeconds : limits.fullSeconds;
  // A backstop for a wait that has no limit of its own: say where, clean up, fail.
  const limit = setTimeout(() => {
    console.error(`${name}: gave up after ${seconds} s (the time limit of this suite); cleaning up.`);
    void cleanUp().finally(() => process.exit(2));
  }, seconds * 1000);
  try {
    const figures = await measure({ quick, defer: (cleanup) => cleanups.push(cleanup) });
    const result: SuiteResult = {
      suite: name,
      quick,
      startedAt: new Date(started).toISOString(),
      seconds: Math.round((Date.now() - started) / 100) / 10,
      node: process.version,
      cpus: os.cpus().length,
      load: { start: round(loadAtStart), end: round(os.loadavg()) },
      figures,
    };
    const dir = resultsDir(quick);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
    console.log(formatTable(figures));
    console.log(
      `${name}: ${result.seconds} s, load ${result.load.start.join(" ")} -> ${result.load.end.join(" ")}`,
    );
  } catch (error) {
    console.error(
      `${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exitCode = 1;
  } finally {
    clearTimeout(limit);
    await cleanUp();
  }
}

function round(values: readonly number[]): number[] {
  return values.map((value) => Math.round(value * 100) / 100);
}
