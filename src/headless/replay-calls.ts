import { raisedByMcpterm } from "../core/mcp/server-sent-errors.js";
import { ProtocolError } from "@modelcontextprotocol/client";
import { statusPhrase } from "../core/mcp/types.js";
import type { CliIo } from "../common/cli-io.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import type { AgentTool } from "../core/agent/tool-host.js";
import { errorMessage } from "../core/errors.js";
import type { McpManager } from "../core/mcp/mcp-manager.js";
import { ToolCallError } from "../core/mcp/tool-call-error.js";
import { findArgumentSecrets } from "../core/policy/argument-secrets.js";
import type { SecretRedactor } from "../core/policy/redact-secrets.js";
import { SchemaValidator } from "../core/policy/schema-validator.js";
import { REDACTED } from "../core/policy/secret-patterns.js";
import { riskRank, type Tier } from "../core/policy/tiers.js";
import { cannotRunAsTask } from "../core/policy/tool-withhold.js";
import { compareAnswers, type ReplayedOutcome } from "../core/replay/compare-answers.js";
import { ignoredFor, type IgnoreRule } from "../core/replay/ignore-rules.js";
import type { RecordedSecrets } from "../core/replay/recorded-secrets.js";
import type { Difference } from "../core/replay/value-diff.js";
import type { RecordedCall } from "../core/trace/recorded-calls.js";
import { approveCall, refusalRemedy } from "./approve-call.js";

export type ReplayStatus = "match" | "differs" | "slow" | "not_replayed" | "unreachable";

export interface CallReport {
  /** 1-based, in the order of the file. */
  index: number;
  call: RecordedCall;
  status: ReplayStatus;
  /** Why it was not replayed, or what differs besides the answer (a tool that is gone). */
  reason: string | undefined;
  durationMs: number | undefined;
  differences: Difference[];
  /** How much slower than recorded, when past the thresholds (a slow call that also differs says both). */
  slower: string | undefined;
}

export interface ReplayOptions {
  yes: boolean;
  allowSecretArguments: boolean;
  /** Whether a person may be asked at the terminal about a risky call. */
  ask: boolean;
  ignore: readonly IgnoreRule[];
  /** Per-call timeout, milliseconds; the server's own when undefined. */
  timeoutMs?: number | undefined;
  /** A call this many times slower than recorded, and `slowMs` slower, is a finding. */
  slowFactor: number;
  slowMs: number;
}

/**
 * Sends recorded calls again, one at a time and in order, to the servers of `manager`, and
 * compares each answer with the recorded one. Calls are approved as `mcpterm call` approves
 * them, against the riskier of the recorded tier and the tier the tool has now: only a call
 * whose tier ran unasked when it was recorded, and still would, runs without --yes.
 */
export async function replayCalls(
  manager: McpManager,
  calls: readonly RecordedCall[],
  options: ReplayOptions,
  context: {
    io: CliIo;
    redactor: SecretRedactor;
    /** What the recording redacted, learned as calls are compared; what is printed is masked with it. */
    secrets: RecordedSecrets;
    onReport?: (report: CallReport) => void;
  },
): Promise<CallReport[]> {
  const host = new McpToolHost(manager);
  const validator = new SchemaValidator();
  await validator.ready();
  const reports: CallReport[] = [];
  for (const [position, call] of calls.entries()) {
    if (context.io.signal.aborted) break;
    const report = await replayOne(call, position + 1, {
      ...context,
      manager,
      host,
      validator,
      options,
    });
    reports.push(report);
    context.onReport?.(report);
  }
  return reports;
}

interface ReplayContext {
  io: CliIo;
  redactor: SecretRedactor;
  manager: McpManager;
  host: McpToolHost;
  validator: SchemaValidator;
  secrets: RecordedSecrets;
  options: ReplayOptions;
}

async function replayOne(call: RecordedCall, index: number, context: ReplayContext): Promise<CallReport> {
  const report = (status: ReplayStatus, reason?: string, durationMs?: number): CallReport => ({
    index,
    call,
    status,
    reason:
      reason === undefined ? undefined : context.secrets.maskLearned(context.redactor.redactText(reason)),
    durationMs,
    differences: [],
    slower: undefined,
  });
  const snapshot = context.manager.servers().find((server) => server.name === call.server);
  if (snapshot?.status !== "connected")
    return report(
      "unreachable",
      `server "${call.server}" ${statusPhrase(snapshot?.status)}${snapshot?.error ? `: ${snapshot.error}` : ""}`,
    );
  if (JSON.stringify(call.arguments).includes(REDACTED))
    return report(
      "not_replayed",
      "the trace redacted a secret from its arguments, so it cannot be sent as it was; give the value in a calls file (mcpterm trace --calls) to replay it",
    );
  if (call.kind === "tool") {
    const tool = context.host
      .list()
      .find((candidate) => candidate.server === call.server && candidate.name === call.target);
    const refused = await refusalOf(call, tool, context);
    if (refused) return report(refused.status, refused.reason);
  }
  const startedAt = performance.now();
  const replayed = await send(call, context);
  const durationMs = Math.round(performance.now() - startedAt);
  const { differences } = await compareAnswers(call.kind, call.recorded, replayed, {
    redactor: context.redactor,
    secrets: context.secrets,
    ignore: ignoredFor(context.options.ignore, call),
  });
  // A server lost during the call (its process ended) is the run's failure, as in `call`: told
  // whole (the exit, its error line, where it was thrown), not as one more difference.
  const after = context.manager.servers().find((server) => server.name === call.server);
  if (replayed.kind === "error" && after?.status !== "connected")
    return { ...report("unreachable", replayed.message, durationMs), differences };
  const slower = slowdown(call.durationMs, durationMs, context.options);
  const status = differences.length > 0 ? "differs" : slower ? "slow" : "match";
  return { ...report(status, undefined, durationMs), differences, slower };
}

/**
 * How much slower a replayed call was than its recording, when it is both `slowFactor` times as
 * slow and `slowMs` slower (a 2 ms call taking 30 ms is noise; a 3 s one taking 40 s is not).
 */
export function slowdown(
  recordedMs: number | undefined,
  replayedMs: number,
  limits: { slowFactor: number; slowMs: number },
): string | undefined {
  if (recordedMs === undefined) return undefined;
  const over = replayedMs - recordedMs;
  if (over <= limits.slowMs || replayedMs <= recordedMs * limits.slowFactor) return undefined;
  const factor = recordedMs === 0 ? "" : `, ${Math.round(replayedMs / recordedMs)}x`;
  return `${replayedMs} ms against ${recordedMs} ms recorded${factor} (the limits: over ${limits.slowFactor}x and over ${limits.slowMs} ms slower; --slow-factor, --slow-ms)`;
}

/** Why a tool call is not sent: the tool is gone, its arguments no longer fit, nobody approved it. */
async function refusalOf(
  call: RecordedCall,
  tool: AgentTool | undefined,
  context: ReplayContext,
): Promise<{ status: ReplayStatus; reason: string } | undefined> {
  if (!tool) {
    const names = context.host
      .list()
      .filter((candidate) => candidate.server === call.server)
      .map((candidate) => candidate.name);
    return {
      status: "differs",
      reason: `server "${call.server}" has no tool "${call.target}" now (tools: ${names.join(", ") || "none"})`,
    };
  }
  const invalid = context.validator.check(tool.inputSchema, call.arguments);
  if (invalid)
    return { status: "differs", reason: `the arguments no longer match its input schema: ${invalid}` };
  const snapshot = context.manager.connection(call.server)?.snapshot();
  const definition = snapshot?.tools.find(
    (candidate) => candidate.definition.name === call.target,
  )?.definition;
  if (definition && cannotRunAsTask(definition, snapshot.capabilities))
    return {
      status: "not_replayed",
      reason: "it can only run as an MCP task, which its server does not offer for tool calls",
    };
  const { tier, reason } = riskier(call, tool);
  const refusal = await approveCall(
    context.io,
    {
      server: call.server,
      tool: call.target,
      tier,
      tierReason: reason,
      arguments: call.arguments,
      secrets: await findArgumentSecrets(call.arguments, context.redactor),
      ...(call.personApproved ? { needsYes: true } : {}),
    },
    context.options,
  );
  if (!refusal) return undefined;
  const what = refusal.what.startsWith(":") ? refusal.what.slice(2) : `it${refusal.what} (${reason})`;
  return { status: "not_replayed", reason: `${what}; ${refusalRemedy(refusal)}` };
}

/**
 * The riskier of the tier the call had when it was recorded and the one its tool has now; a call
 * a person approved in the recording did not run by its tier, and says so.
 */
function riskier(call: RecordedCall, tool: AgentTool): { tier: Tier; reason: string } {
  const recorded = call.tier;
  const { tier, reason } =
    recorded !== undefined && riskRank(recorded) > riskRank(tool.tier)
      ? { tier: recorded, reason: "its tier when it was recorded" }
      : { tier: tool.tier, reason: tool.tierReason };
  return call.personApproved
    ? { tier, reason: `${reason}; a person approved it when it was recorded` }
    : { tier, reason };
}

async function send(call: RecordedCall, context: ReplayContext): Promise<ReplayedOutcome> {
  const { manager, io, options } = context;
  const callOptions = {
    signal: io.signal,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  try {
    switch (call.kind) {
      case "tool":
        return {
          kind: "result",
          value: await manager.callTool(call.server, call.target, call.arguments, callOptions),
        };
      case "resource":
        return {
          kind: "result",
          value: await requireConnection(manager, call.server).readResource(call.target, callOptions),
        };
      case "prompt":
        return {
          kind: "result",
          value: await requireConnection(manager, call.server).getPrompt(
            call.target,
            call.arguments as Record<string, string>,
            callOptions,
          ),
        };
    }
  } catch (error) {
    return errorOutcome(error);
  }
}

function requireConnection(
  manager: McpManager,
  server: string,
): NonNullable<ReturnType<McpManager["connection"]>> {
  const connection = manager.connection(server);
  if (!connection) throw new ToolCallError("transient", `there is no server "${server}"`);
  return connection;
}

/** A failed request as an answer: its class, and the JSON-RPC error the server sent, if it sent one. */
function errorOutcome(error: unknown): ReplayedOutcome {
  const failure = error instanceof ToolCallError ? error.failure : "transient";
  const rpc = jsonRpcError(error);
  return {
    kind: "error",
    failure,
    code: rpc?.code,
    message: rpc?.message ?? errorMessage(error),
  };
}

/**
 * The SDK's error deep in the cause chain: the code and message the server sent; none for an
 * error mcpterm made up (a failed task's call, which its own sentence tells).
 */
function jsonRpcError(error: unknown): { code: number; message: string } | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    if (cause instanceof ProtocolError)
      return raisedByMcpterm(cause.data) ? undefined : { code: cause.code, message: cause.message };
  }
  return undefined;
}
