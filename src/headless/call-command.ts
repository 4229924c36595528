import type { CliArgs } from "../args.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import { parseArguments } from "../core/agent/resolve-tool-call.js";
import { DeniedError, ExitCode, McpError, RuntimeError, UsageError } from "../core/errors.js";
import { ToolCallError } from "../core/mcp/tool-call-error.js";
import { outputSchemaProblem } from "../core/policy/output-schema.js";
import { toolResultText } from "../core/policy/result-text.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { decideApproval } from "../core/policy/approval-policy.js";
import {
  describeArgumentSecrets,
  findArgumentSecrets,
  type ArgumentSecret,
} from "../core/policy/argument-secrets.js";
import { isRiskyTier, TIERS, type Tier } from "../core/policy/tiers.js";
import { needsTaskExecution } from "../core/policy/tool-withhold.js";
import { SchemaValidator } from "../core/policy/schema-validator.js";
import { redactedPretty } from "../core/policy/redacted-json.js";
import { readLineFromTerminal, TYPED_AHEAD_NOTE, type CliIo } from "../common/cli-io.js";
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
    await approveCall(args, io, {
      label: `${args.server}/${args.tool}`,
      tier: tool.tier,
      tierReason: tool.tierReason,
      secrets: await findArgumentSecrets(parsed.value, redactor),
    });

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
 * Asks the approval policy, as every call does: naming the tool on the command line runs a safe
 * tier; a risky one needs `--yes` or a y at the terminal; arguments that hold a secret need
 * `--allow-secret-arguments` or a y, whatever the tier. Throws DeniedError (exit 3) when not run.
 */
async function approveCall(
  args: CallArgs,
  io: CliIo,
  call: { label: string; tier: Tier; tierReason: string; secrets: ArgumentSecret[] },
): Promise<void> {
  const verdict = decideApproval(
    { tier: call.tier, allowance: { state: "not_allowed" }, secrets: call.secrets },
    {
      project: [],
      settings: [],
      flagged: args.yes ? [...TIERS] : TIERS.filter((tier) => !isRiskyTier(tier)),
      interactive: io.stdin.isTTY === true,
      allowSecretArguments: args.allowSecretArguments,
    },
  );
  if (verdict.action === "allow") return;
  const secret = call.secrets.length > 0;
  const how = secret ? "pass --allow-secret-arguments" : "pass --yes";
  if (verdict.action === "ask") {
    const why = secret
      ? `its arguments hold a secret (${describeArgumentSecrets(call.secrets)})`
      : `it is ${call.tier} (${call.tierReason})`;
    if (await confirm(io, `${call.label}: ${why}. Run it? [y/N] `)) return;
  }
  const what = secret
    ? `: its arguments hold a secret (${describeArgumentSecrets(call.secrets)})`
    : ` is ${call.tier}`;
  throw new DeniedError(`Not run: ${call.label}${what}; answer y at the prompt or ${how}.`);
}

async function confirm(io: CliIo, question: string): Promise<boolean> {
  // Piped stdin is never read as an answer: only a person at a terminal can approve.
  if (!io.stdin.isTTY) return false;
  io.stderr.write(question);
  const answer = await readLineFromTerminal(io.stdin, io.signal, {
    onIgnored: () => io.stderr.write(TYPED_AHEAD_NOTE),
  });
  return answer !== undefined && /^y(es)?$/i.test(answer.trim());
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
      return stillConnected || error.timedOut ? new RuntimeError(error.message) : new McpError(error.message);
    case "cancelled":
      return new RuntimeError("interrupted");
    case "business":
    case "permission":
      return new RuntimeError(error.message);
  }
}
