import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import { errorMessage } from "../core/errors.js";
import type { McpManager } from "../core/mcp/mcp-manager.js";
import { sampleArguments } from "../core/mcp/sample-arguments.js";
import type { ServerExitReport } from "../core/mcp/server-exit.js";
import { outputSchemaMismatches } from "../core/policy/output-schema.js";
import { toolResultText } from "../core/policy/result-text.js";
import { SchemaValidator } from "../core/policy/schema-validator.js";
import { cannotRunAsTask } from "../core/policy/tool-withhold.js";
import { firstLine, oneLine } from "../core/text/index.js";
import type { StepStatus } from "./doctor-steps.js";

/** One read-only tool called with arguments made from its schema, and how it answered. */
export interface SampleCall {
  tool: string;
  /** `get_note {"id":1}`. */
  label: string;
  arguments: Record<string, unknown>;
  status: StepStatus;
  /** `ok (3 ms)`, `answered isError: …`, `not called: …`, `server "x" exited (code 1): …`. */
  outcome: string;
  /** The result's outputSchema mismatches, one each. */
  problems: string[];
  durationMs: number | undefined;
}

export interface SampleCallOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** Told each time the server's process ended during a call (before it is started again). */
  onExit: (report: ServerExitReport) => void;
}

/** A sample call slower than this is a warning: a model waits on every call it makes. */
export const SLOW_CALL_MS = 1000;
/** Times the server is started again after a sample call took it down, before the rest are given up. */
const MAX_RESTARTS = 3;
const ARGUMENT_WIDTH = 80;

/**
 * Calls each read-only tool of `server` once, in the order listed, with arguments made from its
 * own input schema (sample-arguments.ts), and judges each answer: an answer that keeps its
 * outputSchema passes; one over SLOW_CALL_MS, or an `isError` (the made-up arguments may name
 * nothing that exists), is a warning; an answer that breaks its outputSchema, a timeout, or a
 * crash fails. A crash is reported, then the server started again so the other tools are called.
 * Only read-only tools are called: the doctor must change nothing.
 */
export async function sampleCalls(
  manager: McpManager,
  server: string,
  options: SampleCallOptions,
): Promise<SampleCall[]> {
  const validator = new SchemaValidator();
  await validator.ready();
  const tools = new McpToolHost(manager)
    .list()
    .filter((tool) => tool.server === server && tool.tier === "read_only");
  const calls: SampleCall[] = [];
  let restarts = 0;
  for (const tool of tools) {
    if (options.signal.aborted) break;
    const args = sampleArguments(tool.inputSchema);
    const label = `${tool.name} ${oneLine(JSON.stringify(args), ARGUMENT_WIDTH)}`;
    const made = { tool: tool.name, label, arguments: args, problems: [], durationMs: undefined };
    const snapshot = manager.connection(server)?.snapshot();
    const definition = snapshot?.tools.find(
      (candidate) => candidate.definition.name === tool.name,
    )?.definition;
    if (definition && cannotRunAsTask(definition, snapshot.capabilities)) {
      calls.push({ ...made, status: "skipped", outcome: "not called: it runs only as an MCP task" });
      continue;
    }
    const invalid = validator.check(tool.inputSchema, args);
    if (invalid) {
      calls.push({
        ...made,
        status: "skipped",
        outcome: `not called: no arguments made from its input schema fit it (${invalid})`,
      });
      continue;
    }
    if (!isConnected(manager, server)) {
      if (restarts >= MAX_RESTARTS) {
        calls.push({ ...made, status: "skipped", outcome: "not called: the server kept going down" });
        continue;
      }
      restarts += 1;
      await manager.restart(server);
      if (!isConnected(manager, server)) {
        calls.push({ ...made, status: "skipped", outcome: "not called: the server did not start again" });
        continue;
      }
    }
    calls.push(await callOne(manager, server, tool, args, { ...options, validator, made }));
  }
  return calls;
}

async function callOne(
  manager: McpManager,
  server: string,
  tool: ReturnType<McpToolHost["list"]>[number],
  args: Record<string, unknown>,
  context: SampleCallOptions & {
    validator: SchemaValidator;
    made: Omit<SampleCall, "status" | "outcome">;
  },
): Promise<SampleCall> {
  const startedAt = performance.now();
  try {
    const result = await manager.callTool(server, tool.name, args, {
      signal: context.signal,
      timeoutMs: context.timeoutMs,
      // Asked for, as a session asks: a server that reports progress does, and the json-rpc step
      // checks what it sends (doctor-wire.ts). Progress restarts the silence limit, so the
      // call's whole time is held to --timeout too: a tool that reports without end must not
      // keep the doctor, or a CI job, waiting.
      onProgress: ignoreProgress,
      maxCall: { ms: context.timeoutMs, setting: "--timeout, the doctor's limit on one call" },
    });
    const durationMs = Math.round(performance.now() - startedAt);
    const made = { ...context.made, durationMs };
    if (result.isError === true)
      return {
        ...made,
        status: "warning",
        outcome: `answered isError (${durationMs} ms): ${firstLine(toolResultText(result), 120)}`,
      };
    const problems = outputSchemaMismatches(tool.outputSchema, result, context.validator);
    if (problems.length > 0)
      return {
        ...made,
        problems,
        status: "failed",
        outcome: `the result breaks its outputSchema in ${problems.length} place(s) (${durationMs} ms)`,
      };
    if (durationMs > SLOW_CALL_MS)
      return { ...made, status: "warning", outcome: `slow: ${durationMs} ms (over ${SLOW_CALL_MS} ms)` };
    return { ...made, status: "passed", outcome: `ok (${durationMs} ms)` };
  } catch (error) {
    const durationMs = Math.round(performance.now() - startedAt);
    const exit = manager.connection(server)?.exitReport();
    if (exit && !isConnected(manager, server)) context.onExit(exit);
    return { ...context.made, durationMs, status: "failed", outcome: errorMessage(error) };
  }
}

function isConnected(manager: McpManager, server: string): boolean {
  return manager.servers().some((snapshot) => snapshot.name === server && snapshot.status === "connected");
}

function ignoreProgress(): void {
  // The progress itself is read off the wire.
}
