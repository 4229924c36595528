import type { McptermConfig, ServerConfig } from "../config/index.js";
import type { UserSettings } from "../config/user-settings.js";
import { McpManager } from "../mcp/mcp-manager.js";
import { autoTiersFromProjectConfig } from "../policy/approval-policy.js";
import { SecretRedactor } from "../policy/redact-secrets.js";
import type { Tier } from "../policy/tiers.js";
import { traceDir } from "../trace/trace-files.js";
import { TraceRecorder } from "../trace/trace-recorder.js";
import { McpToolHost } from "./mcp-tool-host.js";

/**
 * What every session needs around its turns, wired the same way for the TUI and one-shot mode:
 * the redactor, the trace, the MCP servers (recorded on the wire) and their tools (redacted,
 * raw results traced), and the tiers that run without asking.
 */
export interface SessionServices {
  redactor: SecretRedactor;
  /** The fast, synchronous redaction for everything shown or written. */
  redact: (text: string) => string;
  trace: TraceRecorder;
  manager: McpManager;
  mcpTools: McpToolHost;
  /** The project's safe auto tiers plus whatever the user's own settings allow. */
  autoTiers: Tier[];
  /** Risky tiers the project's config tried to auto-approve, dropped: say so to the person. */
  ignoredAutoTiers: Tier[];
  /** Stops the servers and ends the trace. */
  close(): Promise<void>;
}

export function openSessionServices(options: {
  config: McptermConfig;
  /** The servers to start: all of the config's, or none when the person did not trust it. */
  servers: readonly ServerConfig[];
  userSettings: UserSettings;
  apiKeys: ReadonlyArray<string | undefined>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  traceFile: string | undefined;
  model: string;
}): SessionServices {
  const redactor = SecretRedactor.forSession(options.apiKeys, options.env);
  const redact = (text: string): string => redactor.redactSync(text).text;
  // Every session is recorded: to the given file, else to .mcpterm/traces/<session>.jsonl.
  const trace = TraceRecorder.open({
    ...(options.traceFile ? { file: options.traceFile } : {}),
    dir: traceDir(options.cwd),
    redact,
    model: options.model,
    servers: options.servers.map((server) => server.name),
    cwd: options.cwd,
  });
  const manager = new McpManager(options.servers, { parentEnv: options.env, onWire: trace.wire });
  const mcpTools = new McpToolHost(manager, { redactor, onRawResult: trace.rawResult });
  const projectTiers = autoTiersFromProjectConfig(options.config.approval.auto);
  return {
    redactor,
    redact,
    trace,
    manager,
    mcpTools,
    autoTiers: [...new Set([...projectTiers.auto, ...options.userSettings.autoApprovedTiers()])],
    ignoredAutoTiers: projectTiers.ignored,
    close: async () => {
      await manager.close();
      trace.close();
    },
  };
}
