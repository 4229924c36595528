import type { ProtocolEra } from "../core/mcp/protocol-era.js";
import type { CliArgs } from "../args/index.js";
import { McpToolHost } from "../core/agent/mcp-tool-host.js";
import { ExitCode } from "../core/errors.js";
import type { McpManager } from "../core/mcp/mcp-manager.js";
import { protocolFacts, protocolLabel } from "../core/mcp/protocol-facts.js";
import type { LintFinding } from "../core/mcp/tool-lint.js";
import type { AgentTool } from "../core/agent/tool-host.js";
import { lintSummary, toolInventory } from "../core/commands/tool-inventory.js";
import { displayPretty } from "../core/policy/redacted-json.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { firstLine } from "../core/text/index.js";
import type { CliIo } from "../common/cli-io.js";
import { listedToolName } from "../core/policy/tool-withhold.js";
import { findingLine, renderToolReport, toolReport, type ToolReport } from "./tool-report.js";
import { runToolSearchCommand } from "./tool-search-command.js";
import { missingToolError } from "./missing-tool.js";
import { withOneServer, withServers } from "./with-one-server.js";
import { MAX_TTL_MS, type CacheHint } from "../core/mcp/response-cache.js";

type ToolsArgs = Extract<CliArgs, { command: "tools" }>;

/**
 * `mcpterm tools`: connect, then list each server's status, its tools with tier and reason, and
 * the lint findings on its tool definitions and behaviour. Exit 4 when any server failed, else 1
 * when lint found an error.
 * With `--server s <tool>`, that one tool whole instead.
 */
export async function runToolsCommand(args: ToolsArgs, io: CliIo): Promise<ExitCode> {
  if (args.search.length > 0) return runToolSearchCommand(args, io);
  if (args.server !== undefined && args.tool !== undefined)
    return showOneTool(args, args.server, args.tool, io);
  return withServers(args.common, args.server, io, (manager, redactor) => {
    const inventory = toolInventory(manager, new McpToolHost(manager).list());
    const report = inventory.servers.map((server) => ({
      ...server.summary,
      stdoutNoise: manager.connection(server.summary.name)?.stdoutNoise() ?? [],
      stderrTail: manager.connection(server.summary.name)?.stderrLines().slice(-STDERR_TAIL) ?? [],
      tools: toolReports(manager, server.tools),
      lint: server.lint,
    }));
    if (args.json)
      io.stdout.write(`${displayPretty({ servers: report, lint: inventory.lint }, redactor.redactText)}\n`);
    else io.stdout.write(redactor.redactText(renderReport(report, inventory.lint)));
    const anyFailed = report.some((server) => server.status === "failed");
    return Promise.resolve(anyFailed ? ExitCode.serverUnavailable : lintExitCode(inventory.lint));
  });
}

/** One tool whole; a server that cannot start is exit 4, a tool it does not have exit 2 (see missingToolError). */
async function showOneTool(args: ToolsArgs, server: string, name: string, io: CliIo): Promise<ExitCode> {
  return withOneServer(args.common, server, io, (manager, connection, redactor) => {
    const inventory = toolInventory(manager, new McpToolHost(manager).list());
    const own = inventory.servers.find((entry) => entry.summary.name === server);
    const found = toolReports(manager, own?.tools ?? []).find((tool) => tool.name === name);
    if (!found) throw missingToolError(server, name, connection.snapshot());
    const lint = (own?.lint ?? []).filter((finding) => finding.tool === name);
    const redact = redactor.redactText;
    io.stdout.write(
      args.json
        ? `${displayPretty({ server, ...found, lint }, redact)}\n`
        : renderToolReport(server, found, lint, redact),
    );
    return Promise.resolve(lintExitCode(lint));
  });
}

/** For a server's CI: a lint error fails the run (exit 1); warnings do not. */
function lintExitCode(findings: readonly LintFinding[]): ExitCode {
  return findings.some((finding) => finding.severity === "error") ? ExitCode.runtime : ExitCode.ok;
}

/** The tools as reported, each beside the definition its server listed. */
function toolReports(manager: McpManager, tools: readonly AgentTool[]): ToolReport[] {
  const listed = manager.tools();
  return tools.flatMap((tool) => {
    const registered = listed.find(
      (candidate) => candidate.server === tool.server && candidate.definition.name === tool.name,
    );
    return registered ? [toolReport(tool, registered.definition)] : [];
  });
}

const STDERR_TAIL = 5;

interface ServerReport {
  name: string;
  status: string;
  error: string | undefined;
  pid: number | undefined;
  url: string | undefined;
  serverInfo: { name: string; version: string } | undefined;
  era: ProtocolEra | undefined;
  protocolVersion: string | undefined;
  initializeMs: number | undefined;
  cacheHints?: Record<string, CacheHint>;
  tools: ToolReport[];
  lint: LintFinding[];
}

/** What the server said of keeping its tool list (2026 ttlMs, cacheScope), when it said anything. */
function toolListCaching(hints: Record<string, CacheHint> | undefined): string | undefined {
  const hint = hints?.["tools/list"];
  if (!hint) return undefined;
  if (hint.ttlMs <= 0) return "tools/list ttlMs 0, not kept";
  // What mcpterm does, not what the server asked: nothing is kept longer than a day.
  return hint.ttlMs > MAX_TTL_MS
    ? `tools/list kept ${MAX_TTL_MS} ms (${hint.cacheScope}; the server asked for ${hint.ttlMs}, a day at most is kept)`
    : `tools/list kept ${hint.ttlMs} ms (${hint.cacheScope})`;
}

function renderReport(report: ServerReport[], findings: LintFinding[]): string {
  if (report.length === 0)
    return "No MCP servers are configured (add them to mcp.config.json under mcpServers).\n";
  const lines: string[] = [];
  for (const server of report) {
    const timing = server.initializeMs === undefined ? "" : ` in ${server.initializeMs} ms`;
    lines.push(`${server.name}: ${server.status}${timing}${server.error ? ` — ${server.error}` : ""}`);
    const facts = [
      server.serverInfo ? `server ${server.serverInfo.name} ${server.serverInfo.version}` : undefined,
      protocolLabel(protocolFacts(server)),
      server.pid === undefined ? undefined : `pid ${server.pid}`,
      server.url,
      toolListCaching(server.cacheHints),
    ].filter((fact) => fact !== undefined);
    if (facts.length > 0) lines.push(`  (${facts.join(", ")})`);
    for (const tool of server.tools) {
      // A name's escapes and hidden characters written out: `get_note` and `get_note\e[8m` differ.
      lines.push(
        `  ${listedToolName(tool.name)}  [${tool.tier}: ${tool.tierReason}]  ${firstLine(tool.description, 80)}`,
      );
      // What the model is not sent, or sent changed (a tool withheld, a description cut).
      for (const note of tool.notes) lines.push(`    ⚠ ${note}`);
    }
    for (const finding of server.lint) lines.push(findingLine(finding, true));
  }
  lines.push(lintSummary(findings));
  return `${sanitizeForTerminal(lines.join("\n"))}\n`;
}
