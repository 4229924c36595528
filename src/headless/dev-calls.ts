import type { CliIo } from "../common/cli-io.js";
import type { AgentTool } from "../core/agent/tool-host.js";
import { errorMessage } from "../core/errors.js";
import type { McpManager } from "../core/mcp/mcp-manager.js";
import { findArgumentSecrets } from "../core/policy/argument-secrets.js";
import { outputSchemaMismatches } from "../core/policy/output-schema.js";
import type { SecretRedactor } from "../core/policy/redact-secrets.js";
import { toolResultText } from "../core/policy/result-text.js";
import type { SchemaValidator } from "../core/policy/schema-validator.js";
import { approveCall } from "./approve-call.js";

/** A `--call` with its arguments already read. */
export interface DevCall {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface DevCallContext {
  io: CliIo;
  redactor: SecretRedactor;
  say: (line: string) => void;
  manager: McpManager;
  server: string;
  validator: SchemaValidator;
  yes: boolean;
  allowSecretArguments: boolean;
}

/** Lines of a saved call's result shown after each start. */
const RESULT_LINES = 12;
/** How often a call that has not answered says it is still waited for. */
export const STILL_WAITING_MS = 5000;

/**
 * One saved call after a start, reported in a line and the start of its result: `ok`, `isError`,
 * every way the result breaks its outputSchema, or why it failed (a crash is told with its exit
 * code and error line). A call that takes long says "still waiting" every 5 s, so a hung handler
 * is told apart from a slow one as it happens.
 */
export async function runDevCall(
  call: DevCall,
  tools: readonly AgentTool[],
  context: DevCallContext,
): Promise<void> {
  const { io, redactor, say } = context;
  const label = `call ${call.tool} ${JSON.stringify(call.arguments)}`;
  const tool = tools.find((candidate) => candidate.name === call.tool);
  if (!tool) {
    say(`${label}: not run: the server has no tool "${call.tool}"`);
    return;
  }
  const invalid = context.validator.check(tool.inputSchema, call.arguments);
  if (invalid) {
    say(`${label}: not run: the arguments do not match its input schema: ${invalid}`);
    return;
  }
  const refusal = await approveCall(
    io,
    {
      server: tool.server,
      tool: tool.name,
      tier: tool.tier,
      tierReason: tool.tierReason,
      arguments: call.arguments,
      secrets: await findArgumentSecrets(call.arguments, redactor),
    },
    { yes: context.yes, allowSecretArguments: context.allowSecretArguments, ask: false },
  );
  if (refusal) {
    say(`${label}: not run: it${refusal.what}; ${refusal.how}`);
    return;
  }
  const startedAt = performance.now();
  const waiting = setInterval(() => {
    say(`${label}: still waiting (${Math.round((performance.now() - startedAt) / 1000)} s)`);
  }, STILL_WAITING_MS);
  try {
    const result = await context.manager.callTool(context.server, call.tool, call.arguments, {
      signal: io.signal,
    });
    const ms = Math.round(performance.now() - startedAt);
    const mismatches = outputSchemaMismatches(tool.outputSchema, result, context.validator);
    const verdict = result.isError === true ? "isError" : "ok";
    say(
      mismatches.length === 0
        ? `${label}: ${verdict} (${ms} ms)`
        : `${label}: ${verdict}, but the result breaks its outputSchema in ${mismatches.length} place(s) (${ms} ms)`,
    );
    for (const mismatch of mismatches) say(`  ⚠ ${mismatch}`);
    const text = (await redactor.redact(toolResultText(result))).text.split("\n");
    for (const line of text.slice(0, RESULT_LINES)) say(`  ${line}`);
    if (text.length > RESULT_LINES) say(`  … ${text.length - RESULT_LINES} more line(s)`);
  } catch (error) {
    say(`${label}: failed: ${errorMessage(error)}`);
  } finally {
    clearInterval(waiting);
  }
}
