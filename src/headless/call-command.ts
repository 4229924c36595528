import type { CliArgs } from "../args.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import { parseArguments } from "../core/agent/resolve-tool-call.js";
import { DeniedError, ExitCode, ServerUnavailableError, RuntimeError, UsageError } from "../core/errors.js";
import { ToolCallError } from "../core/mcp/tool-call-error.js";
import { outputSchemaProblem } from "../core/policy/output-schema.js";
import { toolResultText } from "../core/policy/result-text.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { findArgumentSecrets } from "../core/policy/argument-secrets.js";
import { needsTaskExecution } from "../core/policy/tool-withhold.js";
import { SchemaValidator } from "../core/policy/schema-validator.js";
import { redactedPretty } from "../core/policy/redacted-json.js";
import type { CliIo } from "../common/cli-io.js";
import { approveCall } from "./approve-call.js";
import { callProgressLine } from "./progress-lines.js";
import { withOneServer } from "./with-one-server.js";

type CallArgs = Extract<CliArgs, { command: "call" }>;

/** `mcpterm call <server>/<tool> [json]`: one tool call with no model, for testing a server by hand. */
export async function runCallCommand(args: CallArgs, io: CliIo): Promise<ExitCode> {
  const parsed = parseArguments(args.arguments ?? "");
  if (!parsed.ok) throw new UsageError(`The tool arguments are not a JSON object: ${parsed.error}.`);

  return withOneServer(args.common, args.server, io, async (manager, connection, redactor) => {
    const tool = new McpToolHost(manager).list().find((candidate) => candidate.name === args.tool);
    if (!tool) {
      const names =
        connection
          .snapshot()
          .tools.map((candidate) => candidate.definition.name)
          .join(", ") || "none";
      throw new UsageError(`Server "${args.server}" has no tool "${args.tool}" (tools: ${names}).`);
    }
    const definition = connection
      .snapshot()
      .tools.find((candidate) => candidate.definition.name === args.tool);
    if (definition && needsTaskExecution(definition.definition)) {
      throw new RuntimeError(
        `${args.server}/${args.tool} was not called: it needs task-based execution (its execution.taskSupport is "required"), which mcpterm does not run yet.`,
      );
    }
    const validator = new SchemaValidator();
    const invalid = validator.check(tool.inputSchema, parsed.value);
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
        arguments: parsed.value,
        secrets: await findArgumentSecrets(parsed.value, redactor),
      },
      { yes: args.yes, allowSecretArguments: args.allowSecretArguments, ask: true },
    );
    if (refusal)
      throw new DeniedError(`Not run: ${label}${refusal.what}; answer y at the prompt or ${refusal.how}.`);

    const startedAt = performance.now();
    const result = await manager
      .callTool(args.server, args.tool, parsed.value, {
        signal: io.signal,
        // Progress goes to stderr as it comes, so a long call shows it is alive; stdout stays the result.
        onProgress: (progress) =>
          void io.stderr.write(`${callProgressLine(progress, redactor.redactText)}\n`),
        ...(args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs }),
      })
      .catch((error: unknown) => {
        throw asCommandError(error, connection.snapshot().status === "connected");
      });
    const durationMs = Math.round(performance.now() - startedAt);
    const isError = result.isError === true;
    // No secret leaves, whichever way it came: the server's result is redacted before printing.
    const redact = redactor.redactText;
    if (args.json) {
      // The server's result as it came (secrets aside), with mcpterm's own facts beside it, not in it.
      const report = { server: args.server, tool: args.tool, isError, durationMs, result };
      io.stdout.write(`${redactedPretty(report, redact)}\n`);
    } else {
      const text = (await redactor.redact(toolResultText(result))).text;
      io.stdout.write(`${sanitizeForTerminal(text)}\n`);
      if (result.structuredContent !== undefined && result.content.length > 0) {
        io.stdout.write(`structuredContent: ${redactedPretty(result.structuredContent, redact)}\n`);
      }
      io.stderr.write(`${isError ? "isError: true, " : ""}${durationMs} ms\n`);
    }
    const problem = outputSchemaProblem(tool.outputSchema, result, validator);
    if (problem) io.stderr.write(`warning: ${sanitizeForTerminal(redact(problem))}\n`);
    return isError ? ExitCode.runtime : ExitCode.ok;
  });
}

/**
 * What a failed call means for the exit code: arguments the server rejected are a usage error
 * (2), a server that is gone could not be reached (4), anything else — a timeout (the server was
 * reached, whatever became of it after), an error the tool raised, a cancelled call — is a
 * runtime failure (1). Messages arrive already redacted.
 */
function asCommandError(error: unknown, stillConnected: boolean): Error {
  if (!(error instanceof ToolCallError)) return error instanceof Error ? error : new Error(String(error));
  switch (error.failure) {
    case "invalid_args":
      return new UsageError(error.message);
    case "transient":
      return stillConnected || error.timedOut
        ? new RuntimeError(error.message)
        : new ServerUnavailableError(error.message);
    case "cancelled":
      return new RuntimeError("interrupted");
    case "business":
    case "permission":
      return new RuntimeError(error.message);
  }
}
