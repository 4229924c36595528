import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./suite.js";

/** The newest modification time of `entry` or anything under it. */
function newest(entry: string): number {
  const stats = statSync(entry, { throwIfNoEntry: false });
  if (!stats) return 0;
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

/**
 * The suites measure dist/, so it must be built from the sources as they are: `npm run build`
 * unless dist/cli.js is newer than every source and build setting (a build is 10-20 s of a
 * quick run's minute on a loaded machine). Returns false when the build failed.
 */
export function ensureBuilt(): boolean {
  const inputs = ["src", "package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json"];
  const sources = Math.max(...inputs.map((input) => newest(path.join(REPO_ROOT, input))));
  if (newest(path.join(REPO_ROOT, "dist/cli.js")) > sources) {
    console.log("dist/ is newer than src/: not rebuilding");
    return true;
  }
  console.log("building dist/ (npm run build)");
  return spawnSync("npm", ["run", "--silent", "build"], { cwd: REPO_ROOT, stdio: "inherit" }).status === 0;
}
