import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import { commonArgs, MAX_TIMER_MS, positiveWholeNumber } from "../shared/option-values.js";
import { launchOptions, TYPED_AND_NAMED, withTrustConfig } from "../shared/server-target.js";

/** `mcpterm doctor [server]`: every step of a server's start and use checked. */
export function doctorCommand(
  parser: Argv<GlobalOptions>,
  { choose, target }: CommandContext,
): Argv<GlobalOptions> {
  return parser.command(
    "doctor [server]",
    "check every step of a server's start and use, each with its evidence; exit 0 when none failed",
    (command) =>
      withTrustConfig(launchOptions(command))
        .positional("server", {
          type: "string",
          describe: "a server of the config (default: every one), or give one after -- or --url",
        })
        .option("json", { type: "boolean", default: false, describe: "the steps as JSON, for CI" })
        .option("calls", {
          type: "boolean",
          default: true,
          describe: "call each read-only tool with generated arguments (--no-calls: do not)",
        })
        .option("timeout", { type: "number", describe: "milliseconds to wait for each sample call" })
        .check((parsed) => positiveWholeNumber("--timeout", parsed.timeout, MAX_TIMER_MS)),
    (parsed) => {
      const typed = target(parsed);
      if (typed && parsed.server !== undefined) throw new Error(TYPED_AND_NAMED);
      choose({
        command: "doctor",
        common: commonArgs(parsed, typed),
        server: typed?.name ?? parsed.server,
        json: parsed.json,
        calls: parsed.calls,
        timeoutMs: parsed.timeout,
      });
    },
  );
}
