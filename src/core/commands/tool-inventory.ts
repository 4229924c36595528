import type { AgentTool } from "../agent/tool-host.js";
import type { McpManager } from "../mcp/mcp-manager.js";
import { lintTools, type LintFinding } from "../mcp/tool-lint.js";
import { summarizeServer, type ServerSummary } from "../mcp/types.js";
import { isBuiltIn } from "../tool-search/index.js";

/**
 * What `/tools` in the TUI and `mcpterm tools` on the command line both report, gathered once:
 * each configured server in config order with what is known of it, its tools as mcpterm offers
 * them, and the lint findings on its definitions and behaviour; then the hosts that are not MCP
 * servers (mcpterm's built-in tools). Each front end renders it its own way.
 */
export interface ToolInventory {
  servers: ServerInventory[];
  builtIn: Array<{ host: string; tools: AgentTool[] }>;
  lint: LintFinding[];
}

export interface ServerInventory {
  /** The report lists the tools themselves, so the summary's count would only repeat them. */
  summary: Omit<ServerSummary, "toolCount">;
  tools: AgentTool[];
  lint: LintFinding[];
}

export function toolInventory(manager: McpManager, tools: readonly AgentTool[]): ToolInventory {
  const lint = lintServers(manager);
  const servers = manager.servers().map((snapshot) => ({
    summary: withoutToolCount(summarizeServer(snapshot)),
    tools: tools.filter((tool) => tool.server === snapshot.name && !isBuiltIn(tool)),
    lint: lint.filter((finding) => finding.server === snapshot.name),
  }));
  const configured = new Set(servers.map((server) => server.summary.name));
  const builtIn: ToolInventory["builtIn"] = [];
  for (const tool of tools) {
    // A server may be named "mcpterm" too: whether a tool is mcpterm's own is the tool's to say.
    if (configured.has(tool.server) && !isBuiltIn(tool)) continue;
    const host = builtIn.find((entry) => entry.host === tool.server);
    if (host) host.tools.push(tool);
    else builtIn.push({ host: tool.server, tools: [tool] });
  }
  return { servers, builtIn, lint };
}

function lintServers(manager: McpManager): LintFinding[] {
  return lintTools(
    manager.servers().map((server) => ({
      name: server.name,
      tools: server.tools.map((tool) => tool.definition),
      stdoutNoise: manager.connection(server.name)?.stdoutNoise() ?? [],
      initializeMs: server.initializeMs,
      probe: server.probe,
      refusedTools: server.refusedTools,
      configNameProblems: server.configNameProblems ?? [],
    })),
  );
}

/** The line both front ends end a listing with. */
export function lintSummary(findings: readonly LintFinding[]): string {
  const errors = findings.filter((finding) => finding.severity === "error").length;
  const warnings = findings.length - errors;
  return findings.length === 0 ? "lint: no findings" : `lint: ${errors} error(s), ${warnings} warning(s)`;
}

function withoutToolCount(summary: ServerSummary): Omit<ServerSummary, "toolCount"> {
  const { toolCount: _count, ...rest } = summary;
  return rest;
}
