import type { ReadResourceResult } from "@modelcontextprotocol/client";
import type { CliArgs } from "../args/index.js";
import { ExitCode, ServerUnavailableError, RuntimeError, errorMessage } from "../core/errors.js";
import type { ServerConnection } from "../core/mcp/server-connection.js";
import type { SubscriptionEvent } from "../core/mcp/subscriptions.js";
import { ToolCallError } from "../core/mcp/tool-call-error-class.js";
import { sanitizeForTerminal, sanitizeOneLine } from "../core/policy/sanitize-terminal.js";
import type { SecretRedactor } from "../core/policy/redact-secrets.js";
import type { CliIo } from "../common/cli-io.js";
import { fullyRedactedLine, fullyRedactedPretty } from "../core/policy/redacted-json.js";
import { followResource } from "./read-follow.js";
import { failureFields } from "./request-failure.js";
import { withOneServer } from "./with-one-server.js";

type ReadArgs = Extract<CliArgs, { command: "read" }>;

/**
 * `mcpterm read <server> <uri>`: one resource, printed as text (binary content described). With
 * `--follow` it subscribes first, prints the resource, and prints it again at each update until
 * Ctrl+C (exit 130, as any command a signal stopped), until the server is lost (exit 4), or
 * until the subscription ends while the server stands (exit 4: the server stopped it). A re-read
 * that fails is told on stderr and the follow goes on.
 */
export async function runReadCommand(args: ReadArgs, io: CliIo): Promise<ExitCode> {
  try {
    return await readResource(args, io);
  } catch (error) {
    // A script reading --json gets an object for a read that failed too, as `call --json` gives
    // one (with --follow, one more line): the sentence stderr gets, and its class.
    if (args.json) {
      const report = { server: args.server, uri: args.uri, ...failureFields(error, io) };
      io.stdout.write(`${JSON.stringify(report, null, args.follow ? undefined : 2)}\n`);
    }
    throw error;
  }
}

async function readResource(args: ReadArgs, io: CliIo): Promise<ExitCode> {
  const listeners = new Set<(event: SubscriptionEvent) => void>();
  // Events before the follow listens (the subscription ended at once) are kept for it.
  const early: SubscriptionEvent[] = [];
  const onSubscription = (event: SubscriptionEvent): void => {
    if (listeners.size === 0) early.push(event);
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
      try {
        await connection.subscribeResource(args.uri);
      } catch (error) {
        // Ctrl+C while the server had yet to answer: the signal's exit code says it all.
        if (io.signal.aborted) return ExitCode.ok;
        const sentence = `Following ${args.uri} on "${args.server}" is not possible: ${withoutStop(errorMessage(error))}.`;
        // As for a read: a server that is not there (lost, silent) is exit 4, a refusal exit 1.
        if (error instanceof ToolCallError && error.failure === "transient")
          throw new ServerUnavailableError(sentence);
        throw new RuntimeError(sentence);
      }
      const end = await followResource({
        uri: args.uri,
        read,
        print,
        readFailed: (error) =>
          io.stderr.write(
            `mcpterm: ${sanitizeOneLine(redactor.redactText(errorMessage(error)))} Still following.\n`,
          ),
        updates: (listener) => {
          listeners.add(listener);
          for (const event of early.splice(0)) listener(event);
          return () => listeners.delete(listener);
        },
        // Connecting again (a remote server's new session) is still following; failed or closed is not.
        alive: () => ["connected", "connecting"].includes(manager.servers()[0]?.status ?? "closed"),
        changes: (listener) => manager.subscribe(listener),
        signal: io.signal,
      });
      if (end.kind === "lost")
        throw new ServerUnavailableError(
          `Server "${args.server}" went away while following ${args.uri}: ${withoutStop(manager.servers()[0]?.error ?? end.reason)}.`,
        );
      if (end.kind === "ended")
        throw new ServerUnavailableError(
          `Server "${args.server}" stopped following ${args.uri}: ${withoutStop(end.reason)}.`,
        );
      return ExitCode.ok;
    },
    { extra: { onSubscription } },
  );
}

/** A sentence that ends in one full stop, whatever the text it quotes ended with. */
function withoutStop(text: string): string {
  return text.replace(/[.\s]+$/, "");
}

async function readOnce(
  args: ReadArgs,
  connection: ServerConnection,
  io: CliIo,
): Promise<ReadResourceResult> {
  // Said as what it is, as `mcpterm resources` says it, not as the server's "Method not found".
  if (connection.snapshot().capabilities?.resources === undefined)
    throw new RuntimeError(
      `Server "${args.server}" offers no resources (its capabilities name none), so there is nothing to read at ${args.uri}.`,
    );
  return connection.readResource(args.uri, { signal: io.signal }).catch((error: unknown) => {
    if (error instanceof ToolCallError && error.failure === "transient")
      throw new ServerUnavailableError(error.message);
    throw new RuntimeError(
      `Reading ${args.uri} from "${args.server}" failed: ${withoutStop(errorMessage(error))}.`,
      // Its class, for --json: an unknown URI is the server's answer, not a broken protocol.
      { cause: error },
    );
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
    io.stdout.write(`${await fullyRedactedLine(line, redactor.forRecords)}\n`);
    return;
  }
  if (args.json) {
    io.stdout.write(`${await fullyRedactedPretty(result, redactor.forRecords)}\n`);
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
