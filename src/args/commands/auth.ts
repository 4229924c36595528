import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import { commonArgs } from "../shared/option-values.js";
import { withTrustConfig } from "../shared/server-target.js";

/** `mcpterm auth <action> [server]`: OAuth sign-ins to remote servers. */
export function authCommand(parser: Argv<GlobalOptions>, { choose }: CommandContext): Argv<GlobalOptions> {
  return parser.command(
    "auth <action> [server]",
    "sign in to remote servers (OAuth): auth login <server> | auth logout <server> | auth status",
    (command) =>
      withTrustConfig(command)
        .positional("action", { choices: ["login", "logout", "status"] as const, demandOption: true })
        .positional("server", { type: "string", describe: "the server, as named in mcp.config.json" })
        .option("browser", {
          type: "boolean",
          default: true,
          describe: "login: offer to open the sign-in page in a browser (--no-browser only shows it)",
        })
        .option("json", { type: "boolean", default: false, describe: "status as JSON" })
        .check((parsed) => {
          if (parsed.action !== "status" && parsed.server === undefined)
            throw new Error(
              `auth ${parsed.action} needs the server's name: mcpterm auth ${parsed.action} <server>`,
            );
          return true;
        }),
    (parsed) =>
      choose({
        command: "auth",
        common: commonArgs(parsed),
        action: parsed.action,
        server: parsed.server,
        browser: parsed.browser,
        json: parsed.json,
      }),
  );
}
