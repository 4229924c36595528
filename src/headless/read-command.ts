import type { ReadResourceResult } from "@modelcontextprotocol/client";
import type { CliArgs } from "../args/index.js";
import { ExitCode, ServerUnavailableError, RuntimeError } from "../core/errors.js";
import type { ServerConnection } from "../core/mcp/server-connection.js";
import type { SubscriptionEvent } from "../core/mcp/subscriptions.js";
import { ToolCallError } from "../core/mcp/tool-call-error-class.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import type { SecretRedactor } from "../core/policy/redact-secrets.js";
import type { CliIo } from "../common/cli-io.js";
import { redactedLine, redactedPretty } from "../core/policy/redacted-json.js";
import { followResource } from "./read-follow.js";
import { withOneServer } from "./with-one-server.js";

type ReadArgs = Extract<CliArgs, { command: "read" }>;

/**
 * `mcpterm read <server> <uri>`: one resource, printed as text (binary content described). With
 * `--follow` it subscribes first, prints the resource, and prints it again at each update until
 * Ctrl+C (exit 130, as any command a signal stopped) or until the server is lost (exit 4).
 */
export async function runReadCommand(args: ReadArgs, io: CliIo): Promise<ExitCode> {
  const listeners = new Set<(event: SubscriptionEvent) => void>();
  const onSubscription = (event: SubscriptionEvent): void => {
    for (const listener of listeners) listener(event);
  };
  return withOneServer(
    args.common,
    args.server,
    io,
    async (manager, connection, redactor) => {
      const read = (): Promise<ReadResourceResult> => readOnce(args, connection, io);
      const print = (result: ReadResourceResult, update: number): Promise<void> =>
        printResult(args, result, update, redactor, io);
      if (!args.follow) {
        await print(await read(), 0);
        return ExitCode.ok;
      }
      await connection.subscribeResource(args.uri).catch((error: unknown) => {
        throw new RuntimeError(
          `Following ${args.uri} on "${args.server}" is not possible: ${(error as Error).message}.`,
        );
      });
      const lost = await followResource({
        uri: args.uri,
        read,
        print,
        updates: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        // Connecting again (a remote server's new session) is still following; failed or closed is not.
        alive: () => ["connected", "connecting"].includes(manager.servers()[0]?.status ?? "closed"),
        changes: (listener) => manager.subscribe(listener),
        signal: io.signal,
      });
      if (lost !== undefined)
        throw new ServerUnavailableError(
          `Server "${args.server}" went away while following ${args.uri}: ${manager.servers()[0]?.error ?? lost}.`,
        );
      return ExitCode.ok;
    },
    { extra: { onSubscription } },
  );
}

async function readOnce(
  args: ReadArgs,
  connection: ServerConnection,
  io: CliIo,
): Promise<ReadResourceResult> {
  return connection.readResource(args.uri, { signal: io.signal }).catch((error: unknown) => {
    if (error instanceof ToolCallError && error.failure === "transient")
      throw new ServerUnavailableError(error.message);
    throw new RuntimeError(`Reading ${args.uri} from "${args.server}" failed: ${(error as Error).message}.`);
  });
}

/** One reading: pretty JSON, one JSON line per reading when following, or the text itself. */
async function printResult(
  args: ReadArgs,
  result: ReadResourceResult,
  update: number,
  redactor: SecretRedactor,
  io: CliIo,
): Promise<void> {
  if (args.json && args.follow) {
    // Only the documented fields, mcpterm's own first-hand: a result may carry fields of any name.
    const line = {
      server: args.server,
      uri: args.uri,
      update,
      at: new Date().toISOString(),
      contents: result.contents,
    };
    io.stdout.write(`${redactedLine(line, redactor.redactText)}\n`);
    return;
  }
  if (args.json) {
    io.stdout.write(`${redactedPretty(result, redactor.redactText)}\n`);
    return;
  }
  // The marker goes to stderr: stdout stays the resource alone, for a pipe.
  if (update > 0) io.stderr.write(`[${args.uri} updated at ${new Date().toLocaleTimeString("en-GB")}]\n`);
  for (const content of result.contents) {
    if ("text" in content)
      io.stdout.write(`${sanitizeForTerminal((await redactor.redact(content.text)).text)}\n`);
    else
      io.stdout.write(
        `[${sanitizeForTerminal(redactor.redactText(content.uri))}: ${content.mimeType ?? "binary"}, ${content.blob.length} base64 characters]\n`,
      );
  }
}
