import type { Tool } from "@modelcontextprotocol/client";
import type { AgentTool } from "../core/agent/tool-host.js";
import type { LintFinding } from "../core/mcp/tool-lint.js";
import { revealHiddenText } from "../core/policy/hidden-text.js";
import { listedToolName } from "../core/policy/tool-withhold.js";
import { displayPretty } from "../core/policy/redacted-json.js";
import { sanitizeForTerminal, sanitizeOneLine } from "../core/policy/sanitize-terminal.js";

/** One tool as `mcpterm tools` reports it: what mcpterm made of it, and the definition as sent. */
export interface ToolReport {
  name: string;
  modelName: string;
  tier: string;
  tierReason: string;
  description: string;
  /** What mcpterm changed before the model saw the tool, or why it was not offered at all. */
  notes: string[];
  withheld: string | undefined;
  /** The definition as the server listed it: inputSchema, outputSchema, annotations, title, _meta, execution… */
  definition: Tool;
}

export function toolReport(tool: AgentTool, definition: Tool): ToolReport {
  return {
    name: tool.name,
    modelName: tool.modelName,
    tier: tool.tier,
    tierReason: tool.tierReason,
    description: tool.description,
    notes: tool.notes,
    withheld: tool.withheld,
    definition,
  };
}

/** A lint finding as one line under its server (naming the tool) or its tool. */
export function findingLine(finding: LintFinding, withTool: boolean): string {
  // The tool's name with its escapes and hidden characters written out, as in the listing.
  const tool = withTool && finding.tool !== undefined ? listedToolName(finding.tool) : undefined;
  const at = [tool, finding.path].filter((part) => part !== undefined);
  const where = at.length > 0 ? `${at.join(" ")}: ` : "";
  return `  ${finding.severity === "error" ? "✗" : "!"} ${finding.severity} ${finding.code}  ${where}${finding.message}`;
}

/** Shown above the blocks, not as one: who the tool is. */
const HEADER_FIELDS = new Set(["name", "title", "description"]);

/**
 * `mcpterm tools --server s <tool>`: the tool with its tier and notes, its description as text,
 * then every other field of its definition as the server sent it, one indented JSON block each.
 * Secrets are redacted, control sequences removed and invisible characters written out.
 */
export function renderToolReport(
  server: string,
  report: ToolReport,
  findings: readonly LintFinding[],
  redact: (text: string) => string,
): string {
  const text = (value: string): string => sanitizeForTerminal(revealHiddenText(redact(value)));
  // The header's fields are each one line: a break in a title cannot forge another tool's line.
  const line = (value: string): string => sanitizeOneLine(revealHiddenText(redact(value)));
  const { definition } = report;
  const lines = [
    `${line(`${server}/${listedToolName(report.name)}`)}  [${line(`${report.tier}: ${report.tierReason}`)}]`,
    ...(definition.title === undefined ? [] : [`  title: ${line(definition.title)}`]),
    `  model name: ${line(report.modelName)}`,
    ...report.notes.map((note) => `  ⚠ ${line(note)}`),
    "description:",
    indent(definition.description === undefined ? "(none)" : text(definition.description)),
  ];
  for (const [field, value] of Object.entries(definition as Record<string, unknown>)) {
    if (HEADER_FIELDS.has(field) || value === undefined) continue;
    const block =
      typeof value === "object" && value !== null
        ? displayPretty(value, redact)
        : text(JSON.stringify(value));
    lines.push(`${text(field)}:`, indent(block));
  }
  lines.push(
    findings.length === 0 ? "lint: no findings" : "lint:",
    ...findings.map((finding) => text(findingLine(finding, false))),
  );
  return `${lines.join("\n")}\n`;
}

function indent(block: string): string {
  return block
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
