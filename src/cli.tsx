#!/usr/bin/env node
import module from "node:module";
import { compileCacheDir } from "./compile-cache-dir.js";

// Checked first, so an older Node gets one sentence rather than a stack trace from code it lacks.
const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  process.stderr.write(
    `mcpterm: needs Node.js 22 or newer, and this is ${process.version}; install Node 22 (see the README's quick start).\n`,
  );
  process.exit(2);
}
// Before anything else loads: Node keeps the compiled code of every module mcpterm loads on
// disk, so later starts skip parsing and compiling it (a large share of start-up time). When the
// folder cannot be made, Node says so in the status this ignores, and mcpterm runs uncached.
module.enableCompileCache(compileCacheDir(process.env));
await import("./process-main.js");
