import type { CliArgs } from "../args/index.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import { DeniedError, ExitCode, RuntimeError, ServerUnavailableError, UsageError } from "../core/errors.js";
import { exitFacts } from "../core/mcp/server-exit.js";
import { missingToolError } from "./missing-tool.js";
import { ToolCallError } from "../core/mcp/tool-call-error-class.js";
import { outputSchemaMismatches } from "../core/policy/output-schema.js";
import { toolResultText } from "../core/policy/result-text.js";
import { CallAnswerTap } from "./call-answer.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { findArgumentSecrets } from "../core/policy/argument-secrets.js";
import { cannotRunAsTask } from "../core/policy/tool-withhold.js";
import { SchemaValidator } from "../core/policy/schema-validator.js";
import { fullyRedactedPretty } from "../core/policy/redacted-json.js";
import type { CliIo } from "../common/cli-io.js";
import { approveCall, refusalRemedy } from "./approve-call.js";
import { bindCallArguments, readCallWords } from "./call-arguments.js";
import { outputSchemaLines, StdoutNoiseWarnings } from "./call-findings.js";
import { callProgressLine, taskStatusLine } from "./progress-lines.js";
import { explainedFailure, failureFields, stderrMarkNow } from "./request-failure.js";
import { withOneServer } from "./with-one-server.js";

type CallArgs = Extract<CliArgs, { command: "call" }>;

/** `mcpterm call <server>/<tool> [json] [key=value…]`: one tool call with no model, for testing a server by hand. */
export async function runCallCommand(args: CallArgs, io: CliIo): Promise<ExitCode> {
  const reported = { onStdout: false };
  const target: CallTarget = { server: args.server, tool: args.tool };
  try {
    return await callTool(args, target, io, reported);
  } catch (error) {
    // A script reading --json gets one object for every call, also one that never went out (a
    // server that would not start, an unknown tool, arguments the schema refuses, a refusal).
    if (args.json && !reported.onStdout)
      io.stdout.write(`${notCalledReport(target, error, io)}
`);
    throw error;
  }
}

interface CallTarget {
  server: string;
  tool: string;
}

/**
 * The server and tool `<server>/<tool>` names, given the config's server names: split at the
 * first slash, or after a server name that holds slashes (`call team/notes/search`, with a
 * server named "team/notes"). When more than one server's name starts the target, which was
 * meant cannot be told, and none is started: a usage error names them.
 */
export function callTarget(names: readonly string[], typed: CallTarget): CallTarget {
  const whole = `${typed.server}/${typed.tool}`;
  const fits = names.filter((name) => whole.startsWith(`${name}/`) && whole.length > name.length + 1);
  const [only] = fits;
  if (only === undefined) return typed;
  if (fits.length === 1) return { server: only, tool: whole.slice(only.length + 1) };
  const readings = fits.map((name) => `tool "${whole.slice(name.length + 1)}" of server "${name}"`);
  throw new UsageError(
    `"${whole}" could name ${readings.join(" or ")}; rename one of those servers in the config to call it.`,
  );
}

/** `{ server, tool, error, failure }` for a call that was not made; the sentence is the one stderr gets. */
function notCalledReport(target: CallTarget, error: unknown, io: CliIo): string {
  const report = { server: target.server, tool: target.tool, ...failureFields(error, io) };
  return JSON.stringify(report, null, 2);
}

async function callTool(
  args: CallArgs,
  target: CallTarget,
  io: CliIo,
  reported: { onStdout: boolean },
): Promise<ExitCode> {
  const typed = readCallWords(args.arguments);
  if (typeof typed === "string") throw new UsageError(`${typed}.`);
  const noise = new StdoutNoiseWarnings(io);
  const answer = new CallAnswerTap();

  return withOneServer(
    args.common,
    args.server,
    io,
    async (manager, connection, redactor) => {
      const host = new McpToolHost(manager);
      const tool = host.list().find((candidate) => candidate.name === target.tool);
      if (!tool) throw missingToolError(target.server, target.tool, connection.snapshot());
      const snapshot = connection.snapshot();
      const definition = snapshot.tools.find((candidate) => candidate.definition.name === target.tool);
      if (definition && cannotRunAsTask(definition.definition, snapshot.capabilities)) {
        throw new RuntimeError(
          `${target.server}/${target.tool} was not called: it can only run as an MCP task (its execution.taskSupport is "required"), and server "${target.server}" does not offer tasks for tool calls (capabilities.tasks.requests.tools.call).`,
        );
      }
      const values = bindCallArguments(typed, tool.inputSchema);
      const validator = new SchemaValidator();
      await validator.ready();
      const invalid = validator.check(tool.inputSchema, values);
      if (invalid) {
        throw new UsageError(
          `The arguments do not match the input schema of ${target.server}/${target.tool}: ${invalid}.`,
        );
      }
      const label = `${target.server}/${target.tool}`;
      const refusal = await approveCall(
        io,
        {
          server: target.server,
          tool: target.tool,
          tier: tool.tier,
          tierReason: tool.tierReason,
          arguments: values,
          secrets: await findArgumentSecrets(values, redactor),
        },
        { yes: args.yes, allowSecretArguments: args.allowSecretArguments, ask: true },
      );
      if (refusal) throw new DeniedError(`Not run: ${label}${refusal.what}; ${refusalRemedy(refusal)}.`);

      const startedAt = performance.now();
      const stderrMark = await stderrMarkNow(connection);
      const result = await manager
        .callTool(target.server, target.tool, values, {
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
              server: target.server,
              tool: target.tool,
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
      const protocolProblems = answer.problems();
      // No secret leaves, whichever way it came: the server's result is redacted before printing.
      const redact = redactor.redactText;
      if (args.json) {
        // The server's result as it came (secrets aside), with mcpterm's own facts beside it, not in
        // it; `outputSchemaProblems` is there when the tool declares an outputSchema ([]: it kept it).
        const report = {
          server: target.server,
          tool: target.tool,
          isError,
          durationMs,
          result: answer.asArrived() ?? result,
          ...(tool.outputSchema === undefined ? {} : { outputSchemaProblems: mismatches }),
          ...(protocolProblems.length === 0 ? {} : { protocolProblems }),
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
      for (const problem of protocolProblems) io.stderr.write(`warning: ${problem}\n`);
      return isError ? ExitCode.runtime : ExitCode.ok;
    },
    {
      extra: { onStdoutNoise: noise.onLine, onWire: answer.onFrame },
      choose: (names) => {
        Object.assign(target, callTarget(names, target));
        return target.server;
      },
    },
  );
}
