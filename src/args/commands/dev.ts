import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import { commonArgs } from "../shared/option-values.js";
import { launchOptions, oneServer, withTrustConfig } from "../shared/server-target.js";
import { replayFlags, replayOptions, savedCall } from "../shared/replay-options.js";
import { isLogLevel } from "../../core/mcp/server-log.js";
import type { LoggingLevel } from "../../core/deprecated-mcp.js";

/** `mcpterm dev [server]`: one server restarted on every change, its tools compared. */
export function devCommand(
  parser: Argv<GlobalOptions>,
  { choose, target }: CommandContext,
): Argv<GlobalOptions> {
  return parser.command(
    "dev [server]",
    "run one server, restart it whenever its files change, and show what changed in its tools",
    (command) =>
      withTrustConfig(launchOptions(replayOptions(command)))
        .positional("server", {
          type: "string",
          describe: "a server of the config (or give one after -- or --url)",
        })
        .option("watch", {
          type: "string",
          array: true,
          describe: "a file or folder to watch instead of the files its command line names (repeatable)",
        })
        .option("call", {
          type: "string",
          array: true,
          describe: "'<tool> [json]': call this tool after every start (repeatable)",
        })
        .option("replay", {
          type: "string",
          describe: "a trace or calls file whose calls to this server are replayed after every start",
        })
        .option("log-level", {
          type: "string",
          default: "debug",
          describe: "the level of the server's log messages to show (logging/setLevel)",
        })
        .check((parsed) => {
          if (typeof parsed.logLevel !== "string" || !isLogLevel(parsed.logLevel))
            throw new Error(
              `--log-level must be one of debug, info, notice, warning, error, critical, alert, emergency, got ${JSON.stringify(parsed.logLevel)}`,
            );
          return true;
        }),
    (parsed) =>
      choose({
        command: "dev",
        common: commonArgs(parsed, target(parsed)),
        server: oneServer("dev", parsed.server, target(parsed)),
        watch: parsed.watch ?? [],
        calls: (parsed.call ?? []).map((spec) => savedCall(spec)),
        replay: parsed.replay,
        logLevel: parsed.logLevel as LoggingLevel,
        ...replayFlags(parsed),
      }),
  );
}
