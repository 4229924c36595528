/**
 * Every command word mcpterm knows other than the interactive assistant: a command line naming
 * one of them never gets the early frame (src/ui/terminal/early-frame.ts). Checked against the
 * parser's own list by test/cli/early-frame.test.ts, so a new command cannot be missed here.
 */
export const COMMAND_WORDS: ReadonlySet<string> = new Set([
  "tools",
  "call",
  "trace",
  "replay",
  "dev",
  "serve",
  "read",
  "resources",
  "prompts",
  "auth",
  "kb",
  "doctor",
]);

/** Flags that mean "not the interactive assistant": a one-shot run, help or the version. */
const NOT_INTERACTIVE = /^(-p|--prompt|-h|--help|-v|--version)(=|$)/;

/**
 * Whether this command line starts the interactive assistant on a terminal, told without the
 * argument parser (which is slow to load): no command word, no one-shot, help or version flag.
 * A value that happens to be a command word (`--model tools`) only costs the early frame.
 */
export function startsInteractive(argv: readonly string[], terminal: boolean): boolean {
  if (!terminal) return false;
  return argv.every((arg) => !COMMAND_WORDS.has(arg) && !NOT_INTERACTIVE.test(arg) && arg !== "--");
}
