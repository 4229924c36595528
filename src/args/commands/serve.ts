import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import { commonArgs } from "../shared/option-values.js";

/** `mcpterm serve`: the knowledge base as an MCP server, on stdio or Streamable HTTP. */
export function serveCommand(parser: Argv<GlobalOptions>, { choose }: CommandContext): Argv<GlobalOptions> {
  return parser.command(
    "serve",
    "run the knowledge base as an MCP server on stdio, or on Streamable HTTP with --http",
    (command) =>
      command
        .option("http", {
          type: "number",
          describe: "serve Streamable HTTP on this port (0: any free port)",
        })
        .option("host", {
          type: "string",
          describe: "with --http: the address to bind (default 127.0.0.1)",
        })
        .option("token-env", {
          type: "string",
          describe: "with --http: the environment variable holding the bearer token clients must send",
        })
        .check((parsed) => {
          const port = parsed.http;
          if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
            throw new Error(`--http must be a port from 0 to 65535, got ${String(port)}`);
          return true;
        }),
    (parsed) =>
      choose({
        command: "serve",
        common: commonArgs(parsed),
        http: parsed.http,
        host: parsed.host ?? "127.0.0.1",
        hostGiven: parsed.host !== undefined,
        tokenEnv: parsed["token-env"],
      }),
  );
}
