import { readFileSync } from "node:fs";
import { MCPTERM_VERSION } from "./core/version.js";

/**
 * The top-level help as yargs prints it, written next to the bundle by the build
 * (scripts/build.mjs), so `mcpterm --help` answers without loading the argument parser.
 */
const HELP_FILE = new URL("./help.txt", import.meta.url);

/**
 * `mcpterm --version` and `mcpterm --help` on their own, answered without loading anything
 * else; undefined for every other command line (and for --help when no built help text exists,
 * as when running from src/), which then goes through the parser as usual.
 */
export function quickAnswer(argv: readonly string[]): string | undefined {
  if (argv.length !== 1) return undefined;
  if (argv[0] === "--version") return MCPTERM_VERSION;
  if (argv[0] !== "--help" && argv[0] !== "-h") return undefined;
  try {
    return readFileSync(HELP_FILE, "utf8");
  } catch {
    return undefined;
  }
}
