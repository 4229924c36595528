#!/usr/bin/env node
import module from "node:module";
import { compileCacheDir } from "./compile-cache-dir.js";
import { nodeVersionProblem } from "./node-version.js";

// Checked first, so an older Node gets one sentence rather than a stack trace from code it lacks.
const tooOld = nodeVersionProblem(process.versions.node);
if (tooOld !== undefined) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(2);
}
// Before anything else loads: Node keeps the compiled code of every module mcpterm loads on
// disk, so later starts skip parsing and compiling it (a large share of start-up time). When the
// folder cannot be made, Node says so in the status this ignores, and mcpterm runs uncached.
module.enableCompileCache(compileCacheDir(process.env));
await import("./process-main.js");
