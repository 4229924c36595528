import { build } from "esbuild";
import path from "node:path";
import { BENCH_DIR, REPO_ROOT } from "./suite.js";

/**
 * A bench script bundled as mcpterm ships (scripts/build.mjs: one file, the packages it uses left
 * to Node), so the process that runs it measures plain JavaScript. Through tsx, each module is
 * transpiled as it loads, and every function carries tsx's `__name` wrapper, which the shipped
 * `dist/` does not: about 18 µs of a warm tool call's CPU went to it. Returns the bundle's path,
 * inside the repository so that Node finds the packages it left out.
 */
export async function bundleBenchScript(script: string): Promise<string> {
  const outfile = path.join(REPO_ROOT, "node_modules", ".cache", "bench", script.replace(/\.ts$/, ".mjs"));
  await build({
    entryPoints: [path.join(BENCH_DIR, script)],
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
