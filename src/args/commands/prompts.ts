import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import { commonArgs } from "../shared/option-values.js";
import { launchOptions, withTrustConfig } from "../shared/server-target.js";

/** `mcpterm prompts [server] [prompt] [arguments..]`: the servers' prompts, or one rendered. */
export function promptsCommand(
  parser: Argv<GlobalOptions>,
  { choose, target }: CommandContext,
): Argv<GlobalOptions> {
  return parser.command(
    "prompts [server] [prompt] [arguments..]",
    "list the servers' prompts with their arguments, or render one: prompts <server> <prompt> [key=value…]",
    (command) =>
      withTrustConfig(launchOptions(command))
        .positional("server", { type: "string", describe: "only this server" })
        .positional("prompt", { type: "string", describe: "render this prompt of the server" })
        .positional("arguments", {
          type: "string",
          array: true,
          describe: "the prompt's arguments: key=value, or values in the order it declares them",
        })
        .option("json", { type: "boolean", default: false, describe: "whole definitions as JSON" }),
    (parsed) => {
      const typed = target(parsed);
      // With a typed server there is no name to give: the words start with the prompt.
      const words = [parsed.server, parsed.prompt, ...(parsed.arguments ?? [])]
        .filter((word) => word !== undefined)
        .map(String);
      const [server, prompt, ...args] = typed ? [typed.name, ...words] : words;
      choose({
        command: "prompts",
        common: commonArgs(parsed, typed),
        server,
        prompt,
        arguments: args,
        json: parsed.json,
      });
    },
  );
}
