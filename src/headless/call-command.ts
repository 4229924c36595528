import type { CliArgs } from "../args/index.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import {
  ConfigError,
  DeniedError,
  errorMessage,
  ExitCode,
  RuntimeError,
  ServerUnavailableError,
  UntrustedConfigError,
  UsageError,
} from "../core/errors.js";
import type { FailureClass } from "../core/policy/failure-class.js";
import { SecretRedactor } from "../core/policy/redact-secrets.js";
import { exitFacts } from "../core/mcp/server-exit.js";
import { missingToolError } from "./missing-tool.js";
import { ToolCallError } from "../core/mcp/tool-call-error-class.js";
import { outputSchemaMismatches } from "../core/policy/output-schema.js";
import { toolResultText } from "../core/policy/result-text.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { findArgumentSecrets } from "../core/policy/argument-secrets.js";
import { cannotRunAsTask } from "../core/policy/tool-withhold.js";
import { SchemaValidator } from "../core/policy/schema-validator.js";
import { fullyRedactedPretty } from "../core/policy/redacted-json.js";
import type { CliIo } from "../common/cli-io.js";
import { approveCall } from "./approve-call.js";
import { bindCallArguments, readCallWords } from "./call-arguments.js";
import { outputSchemaLines, StdoutNoiseWarnings } from "./call-findings.js";
import { callProgressLine, taskStatusLine } from "./progress-lines.js";
import { explainedFailure, stderrMarkNow } from "./request-failure.js";
import { withOneServer } from "./with-one-server.js";

type CallArgs = Extract<CliArgs, { command: "call" }>;

/** `mcpterm call <server>/<tool> [json] [key=value…]`: one tool call with no model, for testing a server by hand. */
export async function runCallCommand(args: CallArgs, io: CliIo): Promise<ExitCode> {
  const reported = { onStdout: false };
  try {
    return await callTool(args, io, reported);
  } catch (error) {
    // A script reading --json gets one object for every call, also one that never went out (a
    // server that would not start, an unknown tool, arguments the schema refuses, a refusal).
    if (args.json && !reported.onStdout)
      io.stdout.write(`${notCalledReport(args, error, io)}
`);
    throw error;
  }
}

/** `{ server, tool, error, failure }` for a call that was not made; the sentence is the one stderr gets. */
function notCalledReport(args: CallArgs, error: unknown, io: CliIo): string {
  const redactor = SecretRedactor.forSession([], io.env);
  const failure: FailureClass = io.signal.aborted
    ? "cancelled"
    : error instanceof DeniedError || error instanceof UntrustedConfigError
      ? "permission"
      : error instanceof UsageError || error instanceof ConfigError
        ? "invalid_args"
        : error instanceof RuntimeError
          ? "protocol"
          : "transient";
  const report = {
    server: args.server,
    tool: args.tool,
    error: redactor.redactText(errorMessage(error)),
    failure,
  };
  return JSON.stringify(report, null, 2);
}

async function callTool(args: CallArgs, io: CliIo, reported: { onStdout: boolean }): Promise<ExitCode> {
  const typed = readCallWords(args.arguments);
  if (typeof typed === "string") throw new UsageError(`${typed}.`);
  const noise = new StdoutNoiseWarnings(io);

  return withOneServer(
    args.common,
    args.server,
    io,
    async (manager, connection, redactor) => {
      const host = new McpToolHost(manager);
      const tool = host.list().find((candidate) => candidate.name === args.tool);
      if (!tool) throw missingToolError(args.server, args.tool, connection.snapshot());
      const snapshot = connection.snapshot();
      const definition = snapshot.tools.find((candidate) => candidate.definition.name === args.tool);
      if (definition && cannotRunAsTask(definition.definition, snapshot.capabilities)) {
        throw new RuntimeError(
          `${args.server}/${args.tool} was not called: it can only run as an MCP task (its execution.taskSupport is "required"), and server "${args.server}" does not offer tasks for tool calls (capabilities.tasks.requests.tools.call).`,
        );
      }
      const values = bindCallArguments(typed, tool.inputSchema);
      const validator = new SchemaValidator();
      await validator.ready();
      const invalid = validator.check(tool.inputSchema, values);
      if (invalid) {
        throw new UsageError(
          `The arguments do not match the input schema of ${args.server}/${args.tool}: ${invalid}.`,
        );
      }
      const label = `${args.server}/${args.tool}`;
      const refusal = await approveCall(
        io,
        {
          server: args.server,
          tool: args.tool,
          tier: tool.tier,
          tierReason: tool.tierReason,
          arguments: values,
          secrets: await findArgumentSecrets(values, redactor),
        },
        { yes: args.yes, allowSecretArguments: args.allowSecretArguments, ask: true },
      );
      if (refusal)
        throw new DeniedError(`Not run: ${label}${refusal.what}; answer y at the prompt or ${refusal.how}.`);

      const startedAt = performance.now();
      const stderrMark = await stderrMarkNow(connection);
      const result = await manager
        .callTool(args.server, args.tool, values, {
          signal: io.signal,
          // Progress goes to stderr as it comes, so a long call shows it is alive; stdout stays the result.
          onProgress: (progress) =>
            void io.stderr.write(`${callProgressLine(progress, redactor.redactText)}\n`),
          // A call the server runs as a task: each status on stderr too, as it changes.
          onTask: (update) => void io.stderr.write(`${taskStatusLine(update, redactor.redactText)}\n`),
          ...(args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs }),
          resendSafe: host.resendSafe(tool),
        })
        .catch(async (error: unknown) => {
          const { failure, detail } = await explainedFailure(error, connection, stderrMark, redactor);
          // CI reading --json learns of a failed call from stdout too, as data: its class and,
          // for a crash, how and why the server ended.
          if (args.json) {
            const exit = failure instanceof ServerUnavailableError ? connection.exitReport() : undefined;
            const report = {
              server: args.server,
              tool: args.tool,
              error: failure.message,
              failure: error instanceof ToolCallError ? error.failure : "transient",
              ...(detail.answer ? { jsonRpcError: detail.answer } : {}),
              ...(detail.stderr.length > 0 ? { stderr: detail.stderr } : {}),
              ...(exit ? { serverExited: exitFacts(exit) } : {}),
            };
            io.stdout.write(`${await fullyRedactedPretty(report, redactor.forRecords)}\n`);
            reported.onStdout = true;
          }
          throw failure;
        });
      const durationMs = Math.round(performance.now() - startedAt);
      const isError = result.isError === true;
      const mismatches = outputSchemaMismatches(tool.outputSchema, result, validator);
      // No secret leaves, whichever way it came: the server's result is redacted before printing.
      const redact = redactor.redactText;
      if (args.json) {
        // The server's result as it came (secrets aside), with mcpterm's own facts beside it, not in
        // it; `outputSchemaProblems` is there when the tool declares an outputSchema ([]: it kept it).
        const report = {
          server: args.server,
          tool: args.tool,
          isError,
          durationMs,
          result,
          ...(tool.outputSchema === undefined ? {} : { outputSchemaProblems: mismatches }),
        };
        io.stdout.write(`${await fullyRedactedPretty(report, redactor.forRecords)}\n`);
        reported.onStdout = true;
      } else {
        const text = (await redactor.redact(toolResultText(result))).text;
        io.stdout.write(`${sanitizeForTerminal(text)}\n`);
        if (result.structuredContent !== undefined && result.content.length > 0) {
          io.stdout.write(
            `structuredContent: ${await fullyRedactedPretty(result.structuredContent, redactor.forRecords)}\n`,
          );
        }
        io.stderr.write(`${isError ? "isError: true, " : ""}${durationMs} ms\n`);
      }
      for (const line of outputSchemaLines(mismatches))
        io.stderr.write(`${sanitizeForTerminal(redact(line))}\n`);
      return isError ? ExitCode.runtime : ExitCode.ok;
    },
    { extra: { onStdoutNoise: noise.onLine } },
  );
}
