import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import { commonArgs, MAX_TIMER_MS, positiveWholeNumber } from "../shared/option-values.js";
import { launchOptions, withTrustConfig } from "../shared/server-target.js";

/** `mcpterm call <server>/<tool> [arguments..]`: one tool called directly. */
export function callCommand(
  parser: Argv<GlobalOptions>,
  { choose, target }: CommandContext,
): Argv<GlobalOptions> {
  return parser.command(
    "call <target> [arguments..]",
    'call one tool directly: mcpterm call <server>/<tool> \'{"json":"args"}\' [key=value…]',
    (command) =>
      withTrustConfig(launchOptions(command))
        .positional("target", {
          type: "string",
          demandOption: true,
          describe: "<server>/<tool>, or <tool> of the server after -- or --url",
        })
        .positional("arguments", {
          type: "string",
          array: true,
          describe: "tool arguments: a JSON object, key=value words, or both",
        })
        .option("json", {
          type: "boolean",
          default: false,
          describe:
            "one JSON object: server, tool, isError, durationMs and the result as it arrived, redacted (a call that got no result: server, tool, error, failure)",
        })
        .option("yes", { type: "boolean", default: false, describe: "run a risky tool without asking" })
        .option("allow-secret-arguments", {
          type: "boolean",
          default: false,
          describe: "send a secret found in the arguments without asking (--yes does not)",
        })
        .option("timeout", { type: "number", describe: "milliseconds to wait for the result" })
        .check((parsed) => positiveWholeNumber("--timeout", parsed.timeout, MAX_TIMER_MS)),
    (parsed) => {
      const typed = target(parsed);
      const [server, ...rest] = typed ? [typed.name, parsed.target] : parsed.target.split("/");
      const tool = rest.join("/");
      if (!server || !tool) throw new Error(`expected <server>/<tool>, got "${parsed.target}"`);
      choose({
        command: "call",
        common: commonArgs(parsed, typed),
        server,
        tool,
        arguments: (parsed.arguments ?? []).map(String),
        json: parsed.json,
        yes: parsed.yes,
        allowSecretArguments: parsed.allowSecretArguments,
        timeoutMs: parsed.timeout,
      });
    },
  );
}
