import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import { commonArgs } from "../shared/option-values.js";
import { launchOptions, TYPED_AND_NAMED, withTrustConfig } from "../shared/server-target.js";

/** `mcpterm tools [tool]`: the servers' tools with tiers, one whole, or ranked for `--search`. */
export function toolsCommand(
  parser: Argv<GlobalOptions>,
  { choose, target }: CommandContext,
): Argv<GlobalOptions> {
  return parser.command(
    "tools [tool]",
    "connect to the servers and list their tools with tiers; --server s <tool> shows one whole",
    (command) =>
      withTrustConfig(launchOptions(command))
        .positional("tool", {
          type: "string",
          describe: "with --server: show this tool's whole definition",
        })
        .option("server", { type: "string", describe: "only this server" })
        .option("search", {
          type: "string",
          array: true,
          describe: "rank the tools for this request as a turn would (repeatable: one list per request)",
        })
        .option("json", {
          type: "boolean",
          default: false,
          describe:
            "each server's state, tools (tier, whole definition) and lint as JSON, redacted (with --search: each tool's score, matched words and whether it is offered)",
        }),
    (parsed) => {
      const search = (parsed.search ?? []).map(String);
      if (search.some((query) => query.trim() === ""))
        throw new Error('--search needs the text of a request, e.g. --search "weather in Paris"');
      if (search.length > 0 && parsed.tool !== undefined)
        throw new Error("--search ranks every tool; leave out the tool name");
      const typed = target(parsed);
      if (typed && parsed.server !== undefined) throw new Error(TYPED_AND_NAMED);
      if (parsed.tool !== undefined && parsed.server === undefined && !typed)
        throw new Error(
          `name the server of tool "${parsed.tool}": mcpterm tools --server <server> ${parsed.tool}`,
        );
      choose({
        command: "tools",
        common: commonArgs(parsed, typed),
        server: typed?.name ?? parsed.server,
        tool: parsed.tool,
        search,
        kb: (parsed.kb as unknown) !== false,
        json: parsed.json,
      });
    },
  );
}
