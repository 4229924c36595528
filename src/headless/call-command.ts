import type { CliArgs } from "../args.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import { parseArguments } from "../core/agent/resolve-tool-call.js";
import { DeniedError, ExitCode, McpError, RuntimeError, UsageError } from "../core/errors.js";
import { ToolCallError } from "../core/mcp/tool-call-error.js";
import { toolResultText } from "../core/policy/result-text.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { isRiskyTier } from "../core/policy/tiers.js";
import { ArgumentValidator } from "../core/policy/validate-arguments.js";
import { redactedLine } from "../core/policy/redacted-json.js";
import { readLineFromTerminal, type CliIo } from "../common/cli-io.js";
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
    const invalid = new ArgumentValidator().check(tool.inputSchema, parsed.value);
    if (invalid) {
      throw new UsageError(
        `The arguments do not match the input schema of ${args.server}/${args.tool}: ${invalid}.`,
      );
    }
    if (
      isRiskyTier(tool.tier) &&
      !args.yes &&
      !(await confirm(io, `${args.server}/${args.tool} is ${tool.tier} (${tool.tierReason}). Run it? [y/N] `))
    ) {
      throw new DeniedError(
        `Not run: ${args.server}/${args.tool} is ${tool.tier}; answer y at the prompt or pass --yes.`,
      );
    }

    const startedAt = performance.now();
    const result = await manager
      .callTool(args.server, args.tool, parsed.value, {
        signal: io.signal,
        ...(args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs }),
      })
      .catch((error: unknown) => {
        throw asCommandError(error, connection.snapshot().status === "connected");
      });
    const durationMs = Math.round(performance.now() - startedAt);
    const isError = result.isError === true;
    // No secret leaves, whichever way it came: the server's result is redacted before printing.
    const redact = (text: string): string => redactor.redactSync(text).text;
    if (args.json) {
      const line = redactedLine({ ...result, isError, durationMs }, redact);
      io.stdout.write(`${JSON.stringify(JSON.parse(line), null, 2)}\n`);
    } else {
      const text = (await redactor.redact(toolResultText(result))).text;
      io.stdout.write(`${sanitizeForTerminal(text)}\n`);
      if (result.structuredContent !== undefined && result.content.length > 0) {
        const structured = redactedLine(result.structuredContent, redact);
        io.stdout.write(`structuredContent: ${JSON.stringify(JSON.parse(structured), null, 2)}\n`);
      }
      io.stderr.write(`${isError ? "isError: true, " : ""}${durationMs} ms\n`);
    }
    return isError ? ExitCode.runtime : ExitCode.ok;
  });
}

async function confirm(io: CliIo, question: string): Promise<boolean> {
  // Piped stdin is never read as an answer: only a person at a terminal can approve.
  if (!io.stdin.isTTY) return false;
  io.stderr.write(question);
  const answer = await readLineFromTerminal(io.stdin, io.signal);
  return answer !== undefined && /^y(es)?$/i.test(answer.trim());
}

/**
 * What a failed call means for the exit code: arguments the server rejected are a usage error
 * (2), a server that is gone could not be reached (4), anything else — a timeout, an error the
 * tool raised, a cancelled call — is a runtime failure (1). Messages arrive already redacted.
 */
function asCommandError(error: unknown, stillConnected: boolean): Error {
  if (!(error instanceof ToolCallError)) return error instanceof Error ? error : new Error(String(error));
  switch (error.failure) {
    case "invalid_args":
      return new UsageError(error.message);
    case "transient":
      return stillConnected ? new RuntimeError(error.message) : new McpError(error.message);
    case "cancelled":
      return new RuntimeError("interrupted");
    case "business":
    case "permission":
      return new RuntimeError(error.message);
  }
}
