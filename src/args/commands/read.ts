import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import { commonArgs } from "../shared/option-values.js";
import { launchOptions, TYPED_AND_NAMED, withTrustConfig } from "../shared/server-target.js";

/** `mcpterm read <server> [uri]`: one MCP resource read. */
export function readCommand(
  parser: Argv<GlobalOptions>,
  { choose, target }: CommandContext,
): Argv<GlobalOptions> {
  return parser.command(
    "read <server> [uri]",
    "read one MCP resource from a server",
    (command) =>
      withTrustConfig(launchOptions(command))
        .positional("server", {
          type: "string",
          demandOption: true,
          describe: "a server of the config (with a server after -- or --url: the uri)",
        })
        .positional("uri", { type: "string", describe: "the resource's URI, as the server lists it" })
        .option("json", {
          type: "boolean",
          default: false,
          describe: "the contents as JSON, redacted (with --follow: one object per reading)",
        })
        .option("follow", {
          type: "boolean",
          default: false,
          describe: "subscribe, then print the resource again at each update until Ctrl+C",
        }),
    (parsed) => {
      const typed = target(parsed);
      if (typed && parsed.uri !== undefined) throw new Error(TYPED_AND_NAMED);
      const uri = typed ? parsed.server : parsed.uri;
      if (uri === undefined)
        throw new Error("mcpterm read needs the resource's uri: mcpterm read <server> <uri>");
      choose({
        command: "read",
        common: commonArgs(parsed, typed),
        server: typed?.name ?? parsed.server,
        uri,
        json: parsed.json,
        follow: parsed.follow,
      });
    },
  );
}
