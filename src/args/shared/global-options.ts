import { PROTOCOL_SETTINGS } from "../../core/config/config-types.js";
import type { Argv } from "yargs";

/** The options every command takes, given before or after its name. */
export function withGlobalOptions(parser: Argv) {
  return parser
    .option("config", { type: "string", describe: "mcp.config.json to load (default ./mcp.config.json)" })
    .option("kb", {
      type: "string",
      describe: "knowledge base folder (default ./knowledge_base); --no-kb turns it off",
    })
    .option("debug", { type: "boolean", default: false, describe: "print stack traces and server stderr" })
    .option("protocol", {
      type: "string",
      choices: PROTOCOL_SETTINGS,
      describe: "MCP revision to speak with every server (default: each entry's, else auto)",
    });
}

/** What a command's builder starts from: the parser with the global options, as yargs types them. */
export type GlobalOptions =
  ReturnType<typeof withGlobalOptions> extends Argv<infer Options> ? Options : never;
