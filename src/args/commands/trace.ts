import type { Argv } from "yargs";
import type { CommandContext } from "../shared/command-context.js";
import type { GlobalOptions } from "../shared/global-options.js";
import { commonArgs, positiveWholeNumber } from "../shared/option-values.js";

/** `mcpterm trace [file]`: a recorded session shown as a tree, JSON, OTLP, frames or calls. */
export function traceCommand(parser: Argv<GlobalOptions>, { choose }: CommandContext): Argv<GlobalOptions> {
  return parser.command(
    "trace [file]",
    "show a recorded session: the newest in .mcpterm/traces, or [file]",
    (command) =>
      command
        .positional("file", { type: "string", describe: "a trace .jsonl file" })
        .option("turn", { type: "number", describe: "only this turn (1-based)" })
        .option("json", { type: "boolean", default: false, describe: "the grouped trace as JSON" })
        .option("otlp", {
          type: "string",
          describe: "write OpenTelemetry spans (OTLP JSON) to this file, or send them to this collector URL",
        })
        .option("wire", { type: "boolean", default: false, describe: "list the MCP JSON-RPC frames" })
        .option("server", { type: "string", describe: "with --wire: only this server's frames" })
        .option("full", {
          type: "boolean",
          default: false,
          describe: "with --wire: long strings (base64 images) whole, not summarized",
        })
        .option("calls", {
          type: "boolean",
          default: false,
          describe: "print the recorded MCP calls as JSON lines, to edit and give to mcpterm replay",
        })
        .check((parsed) => positiveWholeNumber("--turn", parsed.turn)),
    (parsed) =>
      choose({
        command: "trace",
        common: commonArgs(parsed),
        file: parsed.file,
        turn: parsed.turn,
        json: parsed.json,
        otlp: parsed.otlp,
        wire: parsed.wire,
        server: parsed.server,
        full: parsed.full,
        calls: parsed.calls,
      }),
  );
}
