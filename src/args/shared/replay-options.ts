import type { Argv } from "yargs";
import type { ReplayFlags, SavedCall } from "./cli-args.js";

/** A replayed call over 10 times slower than recorded and over a second slower is a finding. */
export const DEFAULT_SLOW_FACTOR = 10;
export const DEFAULT_SLOW_MS = 1000;

/** What replay and dev share: approval of the calls they send, and what comparisons ignore. */
export function replayOptions<T>(command: Argv<T>) {
  return command
    .option("yes", {
      type: "boolean",
      default: false,
      describe: "send risky (dangerous, external) calls too",
    })
    .option("allow-secret-arguments", {
      type: "boolean",
      default: false,
      describe: "send calls whose arguments hold a secret (--yes does not)",
    })
    .option("ignore", {
      type: "string",
      array: true,
      describe:
        "a JSON path left out of every comparison, e.g. $.structuredContent.timestamp, or of one tool's: get_page:$.etag (repeatable)",
    })
    .option("ignore-file", {
      type: "string",
      describe: "a file of such JSON paths, one a line (# comments)",
    })
    .option("slow-factor", {
      type: "number",
      default: DEFAULT_SLOW_FACTOR,
      describe: "a call this many times slower than recorded (and --slow-ms slower) is a finding",
    })
    .option("slow-ms", {
      type: "number",
      default: DEFAULT_SLOW_MS,
      describe: "milliseconds a call must be slower than recorded to count as slow",
    })
    .check((parsed) => {
      const factor = parsed["slow-factor"];
      if (typeof factor !== "number" || !(factor >= 1))
        throw new Error(`--slow-factor must be a number of at least 1, got ${String(factor)}`);
      const ms = parsed["slow-ms"];
      if (typeof ms !== "number" || !Number.isInteger(ms) || ms < 0)
        throw new Error(`--slow-ms must be a whole number of milliseconds, got ${String(ms)}`);
      return true;
    });
}

/** The options replayOptions added, as ReplayFlags (each command adds its own --json). */
export function replayFlags(parsed: {
  yes: boolean;
  allowSecretArguments: boolean;
  ignore?: Array<string | number> | undefined;
  ignoreFile?: string | undefined;
  slowFactor: number;
  slowMs: number;
}): Omit<ReplayFlags, "json"> {
  return {
    yes: parsed.yes,
    allowSecretArguments: parsed.allowSecretArguments,
    ignore: (parsed.ignore ?? []).map(String),
    ignoreFile: parsed.ignoreFile,
    slowFactor: parsed.slowFactor,
    slowMs: parsed.slowMs,
  };
}

/** `<tool> [json]`: the tool's name, then its arguments as JSON. */
export function savedCall(spec: string): SavedCall {
  const trimmed = spec.trim();
  const space = trimmed.search(/\s/);
  const tool = space === -1 ? trimmed : trimmed.slice(0, space);
  const rest = space === -1 ? "" : trimmed.slice(space).trim();
  if (tool === "")
    throw new Error(`--call needs a tool name and optional JSON arguments, e.g. --call 'echo {"text":"hi"}'`);
  return { tool, arguments: rest === "" ? undefined : rest };
}
