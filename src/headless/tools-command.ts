import type { CliArgs } from "../args.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import { ExitCode, UsageError } from "../core/errors.js";
import { McpManager } from "../core/mcp/mcp-manager.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import type { CliIo } from "./cli-io.js";
import { loadProjectConfig } from "./load-project-config.js";

type ToolsArgs = Extract<CliArgs, { command: "tools" }>;

/** `mcpterm tools`: connect, then list each server's status and its tools with tier and reason. */
export async function runToolsCommand(args: ToolsArgs, io: CliIo): Promise<ExitCode> {
  const config = await loadProjectConfig(args.common, io);
  const servers = args.server
    ? config.servers.filter((server) => server.name === args.server)
    : config.servers;
  if (args.server && servers.length === 0) {
    const known = config.servers.map((server) => server.name).join(", ") || "none";
    throw new UsageError(
      `There is no server named "${args.server}" in ${config.path ?? "the config"} (servers: ${known}).`,
    );
  }
  const manager = new McpManager(servers, { parentEnv: io.env });
  try {
    await manager.start();
    const snapshots = manager.servers();
    const tools = new McpToolHost(manager).list();
    const report = snapshots.map((server) => ({
      name: server.name,
      status: server.status,
      transport: server.transport,
      error: server.error,
      serverInfo: server.serverInfo,
      protocolVersion: server.protocolVersion,
      initializeMs: server.initializeMs,
      stdoutNoise: manager.connection(server.name)?.stdoutNoise() ?? [],
      tools: tools
        .filter((tool) => tool.server === server.name)
        .map((tool) => ({
          name: tool.name,
          modelName: tool.modelName,
          tier: tool.tier,
          tierReason: tool.tierReason,
          description: tool.description,
        })),
    }));
    if (args.json) io.stdout.write(`${JSON.stringify({ servers: report }, null, 2)}\n`);
    else io.stdout.write(renderReport(report));
    const anyFailed = snapshots.some((server) => server.status === "failed");
    return anyFailed ? ExitCode.serverUnavailable : ExitCode.ok;
  } finally {
    await manager.close();
  }
}

interface ServerReport {
  name: string;
  status: string;
  error: string | undefined;
  initializeMs: number | undefined;
  stdoutNoise: string[];
  tools: Array<{ name: string; tier: string; tierReason: string; description: string }>;
}

function renderReport(report: ServerReport[]): string {
  if (report.length === 0)
    return "No MCP servers are configured (add them to mcp.config.json under mcpServers).\n";
  const lines: string[] = [];
  for (const server of report) {
    const timing = server.initializeMs === undefined ? "" : ` in ${server.initializeMs} ms`;
    lines.push(`${server.name}: ${server.status}${timing}${server.error ? ` — ${server.error}` : ""}`);
    for (const tool of server.tools) {
      const description = tool.description.split("\n")[0] ?? "";
      lines.push(`  ${tool.name}  [${tool.tier}: ${tool.tierReason}]  ${description.slice(0, 80)}`);
    }
    if (server.stdoutNoise.length > 0) {
      lines.push(
        `  ! wrote ${server.stdoutNoise.length} non-JSON line(s) to stdout, e.g. ${server.stdoutNoise[0] ?? ""}`,
      );
    }
  }
  return `${sanitizeForTerminal(lines.join("\n"))}\n`;
}
