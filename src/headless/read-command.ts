import type { CliArgs } from "../args/index.js";
import { ExitCode, ServerUnavailableError, RuntimeError } from "../core/errors.js";
import { ToolCallError } from "../core/mcp/tool-call-error-class.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import type { CliIo } from "../common/cli-io.js";
import { redactedPretty } from "../core/policy/redacted-json.js";
import { withOneServer } from "./with-one-server.js";

type ReadArgs = Extract<CliArgs, { command: "read" }>;

/** `mcpterm read <server> <uri>`: one resource, printed as text (binary content described). */
export async function runReadCommand(args: ReadArgs, io: CliIo): Promise<ExitCode> {
  return withOneServer(args.common, args.server, io, async (_manager, connection, redactor) => {
    const result = await connection.readResource(args.uri, { signal: io.signal }).catch((error: unknown) => {
      if (error instanceof ToolCallError && error.failure === "transient")
        throw new ServerUnavailableError(error.message);
      throw new RuntimeError(
        `Reading ${args.uri} from "${args.server}" failed: ${(error as Error).message}.`,
      );
    });
    if (args.json) {
      io.stdout.write(`${redactedPretty(result, redactor.redactText)}\n`);
      return ExitCode.ok;
    }
    for (const content of result.contents) {
      if ("text" in content)
        io.stdout.write(`${sanitizeForTerminal((await redactor.redact(content.text)).text)}\n`);
      else
        io.stdout.write(
          `[${content.uri}: ${content.mimeType ?? "binary"}, ${content.blob.length} base64 characters]\n`,
        );
    }
    return ExitCode.ok;
  });
}
