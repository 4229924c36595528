import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import { commonArgs, MAX_TIMER_MS, positiveWholeNumber } from "../shared/option-values.js";
import { launchOptions, serverOverride, withTrustConfig } from "../shared/server-target.js";
import { replayFlags, replayOptions } from "../shared/replay-options.js";

/** `mcpterm replay [trace]`: a recording's MCP calls sent again and compared. */
export function replayCommand(
  parser: Argv<GlobalOptions>,
  { choose, target }: CommandContext,
): Argv<GlobalOptions> {
  return parser.command(
    "replay [trace]",
    "send the MCP calls of a recorded session again, compare each answer with the recorded one",
    (command) =>
      withTrustConfig(launchOptions(replayOptions(command)))
        .positional("trace", {
          type: "string",
          describe: "a trace, or a calls file from mcpterm trace --calls (default: the newest trace)",
        })
        .option("server", {
          type: "string",
          array: true,
          describe: "name=<command or url>: send that server's calls here instead (repeatable)",
        })
        .option("json", { type: "boolean", default: false, describe: "the whole comparison as JSON" })
        .option("timeout", { type: "number", describe: "milliseconds to wait for each answer" })
        .check((parsed) => positiveWholeNumber("--timeout", parsed.timeout, MAX_TIMER_MS)),
    (parsed) => {
      const typed = target(parsed);
      if (typed && parsed.server !== undefined)
        throw new Error(
          "--server names which recorded server a command replaces; with one typed after -- or --url (for a recording of one server), leave it out",
        );
      choose({
        command: "replay",
        common: commonArgs(parsed, typed),
        file: parsed.trace,
        servers: (parsed.server ?? []).map((spec) => serverOverride(spec)),
        json: parsed.json,
        timeoutMs: parsed.timeout,
        ...replayFlags(parsed),
      });
    },
  );
}
