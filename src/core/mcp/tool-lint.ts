import { revealHiddenText } from "../policy/hidden-text.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import type { Tool } from "@modelcontextprotocol/client";
import { truncateEnd } from "../text/index.js";
import type { ProbeOutcome } from "./probe-watch.js";
import { MODERN_REVISION } from "./protocol-era.js";
import { toolSchemaProblems } from "./schema-lint.js";
import { MODEL_TOOL_NAME_PATTERN } from "./tool-names.js";
import { isKnownDialect } from "../policy/schema-validator.js";
import { xMcpHeaderProblem } from "./x-mcp-header.js";

export type LintSeverity = "error" | "warning";

export type LintCode =
  | "invalid-name"
  | "missing-description"
  | "long-description"
  | "invalid-schema"
  | "unknown-type"
  | "required-not-in-properties"
  | "schema-not-object"
  | "property-without-description"
  | "duplicate-name"
  | "instruction-like-text"
  | "hidden-unicode"
  | "stdout-noise"
  | "slow-initialize"
  | "probe-unanswered"
  | "probe-late"
  | "probe-exited"
  | "invalid-x-mcp-header"
  | "unknown-schema-dialect"
  | "tool-not-listed"
  | "config-tool-name";

export interface LintFinding {
  severity: LintSeverity;
  code: LintCode;
  server: string;
  /** Undefined for findings about the server itself. */
  tool: string | undefined;
  /** One sentence a server developer can act on. */
  message: string;
  /** Where in the tool's definition, as a JSON path (`$.inputSchema.properties.limit.type`). */
  path?: string;
}

/** What lint needs to know about one connected server. */
export interface LintServer {
  name: string;
  tools: readonly Tool[];
  /** Lines a stdio server wrote to stdout that were not JSON-RPC. */
  stdoutNoise: readonly string[];
  initializeMs: number | undefined;
  /** Why it was spoken to in 2025 when it is to blame (ServerSnapshot.probe). */
  probe?: ProbeOutcome | undefined;
  /** Tools the server listed but mcpterm did not keep: their x-mcp-header declarations break SEP-2243. */
  refusedTools?: ReadonlyArray<{ name: string; reason: string }>;
  /** Names the config entry gives tools the server does not list (the config's mistake, a warning). */
  configNameProblems?: readonly string[];
}

export const MAX_DESCRIPTION_CHARS = 1024;
export const SLOW_INITIALIZE_MS = 2000;

/**
 * Text in a tool definition that talks to the model rather than describing the tool: the signs
 * of tool poisoning (instructions the user never sees, requests for secrets or private files).
 */
const INSTRUCTION_PATTERNS: ReadonlyArray<{ pattern: RegExp; what: string }> = [
  {
    pattern:
      /\b(?:ignore|disregard|forget)\b[^.]{0,30}\b(?:previous|prior|above|earlier|other|all)\b[^.]{0,20}\b(?:instructions?|prompts?|rules?|messages?)/i,
    what: "tells the model to ignore its instructions",
  },
  {
    pattern:
      /\b(?:do not|don't|never)\s+(?:tell|inform|mention|reveal|show|notify|alert)\b[^.]{0,30}\buser\b/i,
    what: "tells the model to hide something from the user",
  },
  {
    pattern: /<\/?\s*(?:important|system|instructions?|secret|hidden)\s*>/i,
    what: "contains a pseudo-tag such as <IMPORTANT> addressed to the model",
  },
  {
    pattern:
      /~\/\.(?:ssh|aws|gnupg|config|netrc)|\bid_(?:rsa|ed25519|ecdsa)\b|\/etc\/(?:passwd|shadow)|\.env\b/i,
    what: "mentions private files such as ~/.ssh or .env",
  },
  {
    pattern:
      /\b(?:read|send|include|pass|upload|attach|provide|append|copy)\b[^.]{0,60}\b(?:api[ _-]?keys?|private keys?|credentials|passwords?|secrets?|tokens?|environment variables)\b/i,
    what: "asks for keys, credentials or environment variables",
  },
];

/** Zero-width, BiDi-override and Unicode "tag" characters: invisible to a person, read by a model. */
const HIDDEN_UNICODE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/u;

/**
 * Checks tool definitions and server behaviour against what models and clients accept. Pure:
 * the same input always gives the same findings, in server and tool order.
 */
export function lintTools(servers: readonly LintServer[]): LintFinding[] {
  const validator = new AjvJsonSchemaValidator();
  const findings: LintFinding[] = [];
  const owners = new Map<string, string[]>();
  for (const server of servers) {
    findings.push(...lintServer(server));
    for (const tool of server.tools) {
      findings.push(...lintTool(server.name, tool, validator));
      owners.set(tool.name, [...(owners.get(tool.name) ?? []), server.name]);
    }
  }
  for (const server of servers) {
    for (const tool of server.tools) {
      const others = (owners.get(tool.name) ?? []).filter((name) => name !== server.name);
      if (others.length === 0) continue;
      findings.push({
        severity: "warning",
        code: "duplicate-name",
        server: server.name,
        tool: tool.name,
        message: `The name "${tool.name}" is also used by ${others.join(", ")}; models see the server prefix, but people and other clients may confuse them.`,
      });
    }
  }
  return findings;
}

function lintServer(server: LintServer): LintFinding[] {
  const findings: LintFinding[] = [];
  const at = { server: server.name, tool: undefined };
  if (server.stdoutNoise.length > 0) {
    findings.push({
      ...at,
      severity: "error",
      code: "stdout-noise",
      message: `The server wrote ${server.stdoutNoise.length} non-JSON line(s) to stdout (first: ${JSON.stringify(truncateEnd(revealHiddenText(server.stdoutNoise[0] ?? ""), 80))}); stdout is for JSON-RPC only, log to stderr.`,
    });
  }
  for (const refused of server.refusedTools ?? [])
    findings.push({
      server: server.name,
      tool: refused.name,
      severity: "error",
      code: "tool-not-listed",
      message: `Not listed: ${refused.reason}.`,
    });
  for (const problem of server.configNameProblems ?? [])
    findings.push({
      ...at,
      severity: "warning",
      code: "config-tool-name",
      message: `The config: ${problem}.`,
    });
  const { probe } = server;
  if (probe?.kind === "unanswered")
    findings.push({
      ...at,
      severity: "warning",
      code: "probe-unanswered",
      message: `The server never answered server/discover (mcpterm's ${MODERN_REVISION} probe), so each start waits ${probe.waitedMs} ms before mcpterm speaks 2025-11-25; answer a method you do not know with JSON-RPC error -32601 (Method not found), as JSON-RPC requires.`,
    });
  if (probe?.kind === "exited")
    findings.push({
      ...at,
      severity: "warning",
      code: "probe-exited",
      message: `The server's process ${probe.ended} when sent server/discover (mcpterm's ${MODERN_REVISION} probe), so each start runs it twice and speaks 2025-11-25 to the second; answer a method you do not know with JSON-RPC error -32601 (Method not found), as JSON-RPC requires.`,
    });
  if (probe?.kind === "late")
    findings.push({
      ...at,
      severity: "warning",
      code: "probe-late",
      message: `The server answered server/discover (mcpterm's ${MODERN_REVISION} probe) after ${probe.answeredMs} ms, past the ${probe.waitedMs} ms mcpterm waits, so it was spoken to in 2025-11-25; read stdin before slow setup, or set "protocol": "${MODERN_REVISION}" in its entry to wait for it.`,
    });
  // The wait for an unanswered probe is told above; what is slow beyond it is the server's start
  // (a late answer is the slow start itself, told with it).
  const startMs =
    server.initializeMs === undefined || probe?.kind === "late"
      ? undefined
      : server.initializeMs - (probe?.kind === "unanswered" ? probe.waitedMs : 0);
  if (startMs !== undefined && startMs > SLOW_INITIALIZE_MS) {
    findings.push({
      ...at,
      severity: "warning",
      code: "slow-initialize",
      message: `Connecting and initializing took ${startMs} ms${probe?.kind === "unanswered" ? " beside the wait for server/discover" : ""} (over ${SLOW_INITIALIZE_MS} ms); defer slow setup until a tool needs it.`,
    });
  }
  return findings;
}

/** Findings for one tool definition. Exported for table tests. */
export function lintTool(
  server: string,
  tool: Tool,
  validator = new AjvJsonSchemaValidator(),
): LintFinding[] {
  const findings: LintFinding[] = [];
  const add = (severity: LintSeverity, code: LintCode, message: string): void => {
    findings.push({ severity, code, server, tool: tool.name, message });
  };

  if (!MODEL_TOOL_NAME_PATTERN.test(tool.name)) {
    const why =
      tool.name.length > 64
        ? `is ${tool.name.length} characters long (the limit is 64)`
        : "uses characters other than letters, digits, _ and -";
    add("error", "invalid-name", `The name ${why}, which OpenAI-compatible models reject.`);
  }

  const description = tool.description ?? "";
  if (description.trim() === "")
    add(
      "warning",
      "missing-description",
      "The tool has no description, so the model must guess what it does.",
    );
  else if (description.length > MAX_DESCRIPTION_CHARS)
    add(
      "warning",
      "long-description",
      `The description is ${description.length} characters (over ${MAX_DESCRIPTION_CHARS}); it costs context on every request.`,
    );

  const schema = tool.inputSchema as Record<string, unknown>;
  for (const problem of toolSchemaProblems(tool, (body) => schemaCompileError(body, validator)))
    findings.push({ severity: "error", server, tool: tool.name, ...problem });

  if (schema.$schema !== undefined && !isKnownDialect(schema.$schema))
    add(
      "warning",
      "unknown-schema-dialect",
      `The input schema declares $schema ${truncateEnd(JSON.stringify(schema.$schema), 120)}, a dialect mcpterm cannot check; it checks arguments as JSON Schema 2020-12 (the MCP default) instead.`,
    );

  // Kept here (stdio, or 2025), but a 2026-07-28 client over HTTP would drop it.
  const header = xMcpHeaderProblem(schema);
  if (header !== undefined)
    add(
      "warning",
      "invalid-x-mcp-header",
      `${capitalize(header)}; 2026-07-28 clients over HTTP drop such a tool (SEP-2243).`,
    );

  const properties = isRecord(schema.properties) ? schema.properties : {};
  const undocumented = Object.entries(properties)
    .filter(([, property]) => !isDocumented(property))
    .map(([name]) => name);
  if (undocumented.length > 0)
    add(
      "warning",
      "property-without-description",
      `Parameter(s) ${undocumented.join(", ")} have no description, so the model must guess their meaning.`,
    );

  // Poisoning can hide in parameter descriptions as well as in the tool's own.
  const text = [tool.name, tool.title ?? "", description, JSON.stringify(tool.inputSchema)].join("\n");
  for (const { pattern, what } of INSTRUCTION_PATTERNS) {
    const match = pattern.exec(text);
    if (match)
      add(
        "error",
        "instruction-like-text",
        `The definition ${what} (${JSON.stringify(truncateEnd(match[0], 60))}), a sign of tool poisoning.`,
      );
  }
  const hidden = HIDDEN_UNICODE.exec(text);
  if (hidden) {
    const code = hidden[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0") ?? "?";
    add(
      "error",
      "hidden-unicode",
      `The definition contains invisible Unicode (U+${code}) that a person cannot see but a model reads.`,
    );
  }
  return findings;
}

function schemaCompileError(
  schema: Record<string, unknown>,
  validator: AjvJsonSchemaValidator,
): string | undefined {
  // Checked by its declared dialect; one the validator does not know is checked as 2020-12, as
  // mcpterm checks arguments (lintTool warns about the dialect itself).
  const { $schema: dialect, ...rest } = schema;
  const body = isKnownDialect(dialect) ? schema : rest;
  try {
    validator.getValidator(body);
    return undefined;
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).replace(/\.$/, "");
  }
}

/**
 * Whether the model learns what a parameter means: from its own description, or, for an object
 * or array, from descriptions on every field inside it (server-memory's `entities` describes each
 * entity's fields, which says more than a line on the array would).
 */
function isDocumented(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  if (typeof schema.description === "string" && schema.description.trim() !== "") return true;
  const inner = innerSchemas(schema);
  return inner.length > 0 && inner.every(isDocumented);
}

/** The schemas of what a value holds: an object's properties, an array's items, a union's branches. */
function innerSchemas(schema: Record<string, unknown>): unknown[] {
  const inner: unknown[] = [];
  if (isRecord(schema.properties)) inner.push(...Object.values(schema.properties));
  if (isRecord(schema.items)) inner.push(schema.items);
  else if (Array.isArray(schema.items)) inner.push(...(schema.items as unknown[]));
  for (const union of ["anyOf", "oneOf"] as const) {
    const branches = schema[union];
    // A nullable value's `{type: "null"}` branch has nothing to describe.
    if (Array.isArray(branches))
      inner.push(...(branches as unknown[]).filter((branch) => !isRecord(branch) || branch.type !== "null"));
  }
  return inner;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
