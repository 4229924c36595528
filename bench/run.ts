/**
 * `npm run bench`: every benchmark in turn, each in its own process so one's memory and JIT
 * state do not colour the next. KB_PERF_MB sets the generated corpus size (default 20).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const scripts = ["engine-bench.ts", "kb-perf.ts", "kb-eval.ts", "text-width.ts"];
let failed = false;

for (const script of scripts) {
  console.log(`\n== ${script}`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(here, script)], {
    stdio: "inherit",
  });
  if (result.status !== 0) {
    console.error(`${script} failed with exit code ${String(result.status)}`);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
