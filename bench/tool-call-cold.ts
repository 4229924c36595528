/**
 * One path's first tool calls in a process of its own, for tool-call-bench.ts: nothing compiled
 * by V8 yet, nothing loaded lazily yet (the schema validator's ajv, secretlint's gate), as in a
 * fresh `mcpterm -p` or `mcpterm call` (`mcpterm-warmed`: with the schema validator built first,
 * untimed, as a session's model step that offers tools builds it while the model answers). Prints `{"first": ms, "p50": ms}` on stdout: the first
 * call, and the p50 of the calls after it, made one after another.
 *
 * tool-call-bench.ts bundles it (node_modules/.cache/bench/tool-call-cold.mjs) and runs
 * `node <bundle> <sdk|mcpterm|mcpterm-warmed> <marker> <trace folder> <calls>`, having compiled the fixtures and
 * set their folder in the environment.
 */
import { performance } from "node:perf_hooks";
import { fixtureLaunch } from "../test/support/fixtures.js";
import { percentile, sortedCopy } from "./lib/stats.js";
import { mcptermPath, sdkPath } from "./lib/tool-paths.js";

const [name, marker, traces, count] = process.argv.slice(2);
if (!marker || !traces || (name !== "sdk" && name !== "mcpterm" && name !== "mcpterm-warmed"))
  throw new Error("usage: tool-call-cold.ts <sdk|mcpterm|mcpterm-warmed> <marker> <trace folder> <calls>");
const launch = fixtureLaunch(marker);
const tools =
  name === "sdk"
    ? await sdkPath(launch)
    : await mcptermPath(launch, traces, { warmValidator: name === "mcpterm-warmed" });
const samples: number[] = [];
try {
  for (let call = 0; call < Number(count ?? 1000); call += 1) {
    const started = performance.now();
    const text = await tools.call("echo", { text: "x" });
    samples.push(performance.now() - started);
    if (text !== "x") throw new Error(`echo answered ${JSON.stringify(text.slice(0, 80))}`);
  }
} finally {
  await tools.close();
}
process.stdout.write(
  JSON.stringify({ first: samples[0], p50: percentile(sortedCopy(samples.slice(1)), 50) }),
);
