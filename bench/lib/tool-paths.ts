import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpToolHost } from "../../src/core/agent/mcp-tool-host.js";
import { SessionOutput } from "../../src/core/agent/session-output.js";
import { runToolCalls } from "../../src/core/agent/tool-calls.js";
import type { ToolOutcome } from "../../src/core/agent/tool-host.js";
import type { TurnOptions } from "../../src/core/agent/run-turn.js";
import type { ChatModel } from "../../src/core/llm/types.js";
import { CLIENT_CAPABILITIES } from "../../src/core/mcp/client-capabilities.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { versionNegotiation } from "../../src/core/mcp/protocol-era.js";
import { findArgumentSecrets } from "../../src/core/policy/argument-secrets.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { ToolAllowances } from "../../src/core/policy/tool-allowances.js";
import { NOBODY } from "../../src/core/person/person.js";
import { SchemaValidator } from "../../src/core/policy/schema-validator.js";
import { TraceRecorder } from "../../src/core/trace/trace-recorder.js";
import { serverConfig } from "../../test/support/fixtures.js";
import { DEFAULT_STARTUP_TIMEOUT_MS } from "../../src/core/config/config-types.js";

/** One way of calling a tool on a stdio server; resolves with the result text. */
export interface ToolPath {
  call(tool: string, args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

interface Launch {
  command: string;
  args: string[];
}

/**
 * The floor: the `Client` of the MCP SDK mcpterm is built on (v2) over that SDK's own stdio
 * transport, nothing else, sending what mcpterm sends: the protocol revision settled as mcpterm
 * settles it for a stdio server (`versionNegotiation`: the fixture speaks 2026-07-28, so both
 * send that revision's envelope with every request), mcpterm's client capabilities in it, and a
 * progress token. The server reads the capabilities of every 2026 request, at a cost of its own
 * (about 40 µs of its CPU a call); the SDK's defaults (2025-11-25, no capabilities) would
 * compare two requests, not two clients.
 */
export async function sdkPath(launch: Launch): Promise<ToolPath> {
  const client = new Client(
    { name: "bench", version: "1" },
    {
      versionNegotiation: versionNegotiation("auto", "stdio", DEFAULT_STARTUP_TIMEOUT_MS),
      capabilities: CLIENT_CAPABILITIES,
    },
  );
  await client.connect(new StdioClientTransport({ ...launch, stderr: "pipe" }));
  if (client.getProtocolEra() !== "modern") throw new Error("the SDK's client did not settle on 2026-07-28");
  // As McpManager.start lists a server's tools: without the list, the SDK's first callTool asks
  // for it (a round trip of its own) before it sends the call.
  await client.listTools();
  return {
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args }, { onprogress: ignoreProgress });
      return result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    },
    close: () => client.close(),
  };
}

/** Asking for progress puts a progress token in the request, as mcpterm always asks. */
function ignoreProgress(): void {
  // The fixture's echo reports none.
}

/** mcpterm's paths settle the revision themselves; the comparison holds only if they chose the floor's. */
export function assertModern(manager: McpManager): void {
  const era = manager.servers()[0]?.era;
  if (era !== "modern")
    throw new Error(`mcpterm settled on ${era ?? "no"} protocol era with the fixture, not 2026-07-28`);
}

const NO_MODEL: ChatModel = {
  model: "bench",
  stream: () => {
    throw new Error("the tool-call benchmark never asks a model");
  },
};

/**
 * mcpterm's path for a call the model proposed, wired as openSession wires a session: the
 * session redactor, a trace recording every JSON-RPC frame, raw result and event, McpManager
 * and McpToolHost; each call goes through runToolCalls (lookup, schema validation, the
 * argument-secret scan, the approval policy, the last look at the definition) and every event
 * through SessionOutput to the trace, as Session.run does. The person's settings let read_only
 * tools run unasked, so no approval waits on anyone.
 */
export async function mcptermPath(
  launch: Launch,
  traceDir: string,
  {
    warmValidator = false,
    traced = true,
  }: {
    warmValidator?: boolean;
    /** False: the same path with no trace recorder, to show what recording the call costs it. */
    traced?: boolean;
  } = {},
): Promise<ToolPath> {
  // No API keys and an empty environment: the redactor's rule sets, without known secret values.
  const redactor = SecretRedactor.forSession([], {}, []);
  const redact = (text: string): string => redactor.redactSync(text).text;
  const trace = traced
    ? TraceRecorder.open({
        dir: traceDir,
        redaction: redactor.forRecords,
        model: "bench",
        servers: ["fixture"],
        cwd: traceDir,
      })
    : undefined;
  const manager = new McpManager([serverConfig("fixture", launch)], {
    parentEnv: process.env,
    redact,
    ...(trace ? { onWire: trace.wire } : {}),
  });
  await manager.start();
  assertModern(manager);
  const host = new McpToolHost(manager, { redactor, ...(trace ? { onRawResult: trace.rawResult } : {}) });
  const options: TurnOptions = {
    input: "bench",
    turn: 1,
    conversation: [],
    model: NO_MODEL,
    tools: host,
    approval: { project: [], settings: ["read_only"], flagged: [], interactive: true },
    allowances: new ToolAllowances(),
    person: NOBODY,
    validator: new SchemaValidator(),
    scanArguments: (args) => findArgumentSecrets(args, redactor),
    maxSteps: 1,
  };
  // As runTurn has it built while the model answers a step that offers tools.
  if (warmValidator) await options.validator.warm();
  let calls = 0;
  return {
    call: async (name, args) => {
      const tools = host.list();
      const tool = tools.find((candidate) => candidate.name === name);
      if (!tool) throw new Error(`the fixture has no tool ${name}`);
      const id = `call_${(calls += 1)}`;
      const outcomes = new Map<string, ToolOutcome>();
      const output = new SessionOutput({ redact, spacedSecrets: redactor.spacedSecrets });
      const requests = [{ id, name: tool.modelName, arguments: JSON.stringify(args) }];
      for await (const event of runToolCalls(
        options,
        1,
        requests,
        { tools, heldBack: new Set(), warnings: [] },
        outcomes,
      ))
        for (const passed of output.pass(event)) trace?.write(passed);
      const outcome = outcomes.get(id);
      if (!outcome?.ok) throw new Error(`the call failed: ${outcome?.display ?? "no outcome"}`);
      return outcome.display;
    },
    close: async () => {
      await manager.close();
      trace?.close();
    },
  };
}

/** McpManager.callTool and nothing around it: where the rest of mcpterm's path starts. */
export async function managerPath(launch: Launch): Promise<ToolPath> {
  const manager = new McpManager([serverConfig("fixture", launch)], { parentEnv: process.env });
  await manager.start();
  assertModern(manager);
  return {
    call: async (name, args) => {
      const result = await manager.callTool("fixture", name, args);
      const content = result.content as Array<{ type: string; text?: string }>;
      return content.map((part) => part.text ?? "").join("");
    },
    close: () => manager.close(),
  };
}
