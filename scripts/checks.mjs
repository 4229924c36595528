// The static checks of `npm test`, side by side: typecheck, lint (zero warnings) and the format
// check. Each is single-threaded and they share nothing, so on two cores running them together
// takes about as long as the slowest alone instead of their sum. Each keeps a cache under
// node_modules/.cache, so a second run on an unchanged tree is quick; a fresh clone has none and
// checks everything. Every check's output is printed whole, one after the other, and the exit
// code is 1 if any failed.
import { spawn } from "node:child_process";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cache = path.join(root, "node_modules", ".cache", "mcpterm-checks");
const bin = (name) => path.join(root, "node_modules", ".bin", name);

const checks = [
  {
    name: "typecheck",
    command: bin("tsc"),
    args: [
      "-p",
      "tsconfig.json",
      "--noEmit",
      "--incremental",
      "--tsBuildInfoFile",
      path.join(cache, "tsc.tsbuildinfo"),
    ],
  },
  {
    name: "lint",
    command: bin("eslint"),
    args: [
      ".",
      "--max-warnings=0",
      "--cache",
      "--cache-strategy",
      "content",
      "--cache-location",
      path.join(cache, "eslint"),
    ],
  },
  {
    name: "format",
    command: bin("prettier"),
    args: ["--check", ".", "--cache", "--cache-location", path.join(cache, "prettier")],
  },
];

function run(check) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(check.command, check.args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ ...check, code: 1, output: `${error.message}\n`, ms: 0 }));
    child.on("close", (code) => resolve({ ...check, code: code ?? 1, output, ms: Date.now() - started }));
  });
}

const results = await Promise.all(checks.map(run));
for (const result of results) {
  const verdict = result.code === 0 ? "passed" : `FAILED (exit ${result.code})`;
  process.stdout.write(
    `\n── ${result.name}: ${verdict} in ${(result.ms / 1000).toFixed(1)} s\n${result.output}`,
  );
}
process.exitCode = results.every((result) => result.code === 0) ? 0 : 1;
