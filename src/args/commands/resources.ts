import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import { commonArgs } from "../shared/option-values.js";
import { launchOptions, TYPED_AND_NAMED, withTrustConfig } from "../shared/server-target.js";

/** `mcpterm resources [server]`: the servers' resources and resource templates. */
export function resourcesCommand(
  parser: Argv<GlobalOptions>,
  { choose, target }: CommandContext,
): Argv<GlobalOptions> {
  return parser.command(
    "resources [server]",
    "connect to the servers and list their resources and resource templates",
    (command) =>
      withTrustConfig(launchOptions(command))
        .positional("server", { type: "string", describe: "only this server" })
        .option("json", { type: "boolean", default: false, describe: "whole definitions as JSON" }),
    (parsed) => {
      const typed = target(parsed);
      if (typed && parsed.server !== undefined) throw new Error(TYPED_AND_NAMED);
      choose({
        command: "resources",
        common: commonArgs(parsed, typed),
        server: typed?.name ?? parsed.server,
        json: parsed.json,
      });
    },
  );
}
