import type { McpManager } from "../mcp/mcp-manager.js";
import type { ServerSnapshot } from "../mcp/types.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { firstLine } from "../text/index.js";
import type { CatalogEntry } from "./completion-plan.js";
import { promptUsage } from "./prompt-arguments.js";

/**
 * Servers' resources, templates and prompts as a person reads them. Every text comes from the
 * server, so each is redacted and cleaned of terminal controls here, where it is made for display.
 */

export interface ResourceLine {
  kind: "resource" | "template";
  /** The URI, or the template's URI pattern. */
  uri: string;
  name: string;
  mimeType: string;
  description: string;
}

export interface PromptLine {
  /** `/everything:args-prompt`, as it is typed. */
  command: string;
  /** `<city> [state]`. */
  usage: string;
  title: string;
  description: string;
  arguments: Array<{ name: string; required: boolean; description: string }>;
}

/** Why a server shows nothing of `part`: not connected, does not offer it, or its listing failed. */
export function catalogGap(server: ServerSnapshot, part: "resources" | "prompts"): string | undefined {
  if (server.status !== "connected") return `${server.status}${server.error ? `: ${server.error}` : ""}`;
  if (!server.capabilities?.[part]) return `offers no ${part}`;
  return server.catalog.problems.find((problem) => problem.includes(part));
}

export function resourceLines(server: ServerSnapshot, redact: (text: string) => string): ResourceLine[] {
  const clean = cleaner(redact);
  const { resources, resourceTemplates } = server.catalog;
  return [
    ...resources.map((resource) => ({
      kind: "resource" as const,
      uri: clean(resource.uri),
      name: clean(resource.title ?? resource.name),
      mimeType: clean(resource.mimeType ?? ""),
      description: clean(resource.description ?? ""),
    })),
    ...resourceTemplates.map((template) => ({
      kind: "template" as const,
      uri: clean(template.uriTemplate),
      name: clean(template.title ?? template.name),
      mimeType: clean(template.mimeType ?? ""),
      description: clean(template.description ?? ""),
    })),
  ];
}

export function promptLines(server: ServerSnapshot, redact: (text: string) => string): PromptLine[] {
  const clean = cleaner(redact);
  return server.catalog.prompts.map((prompt) => ({
    command: clean(`/${server.name}:${prompt.name}`),
    usage: clean(promptUsage(prompt)),
    title: clean(prompt.title ?? ""),
    description: clean(prompt.description ?? ""),
    arguments: (prompt.arguments ?? []).map((argument) => ({
      name: clean(argument.name),
      required: argument.required === true,
      description: clean(argument.description ?? ""),
    })),
  }));
}

/** `7 + 2 templates`: how many resources a server lists, for a status table. */
export function resourceCount(server: ServerSnapshot): string {
  if (server.status !== "connected") return "";
  const { resources, resourceTemplates } = server.catalog;
  const templates = resourceTemplates.length;
  return `${resources.length}${templates > 0 ? ` + ${templates} template${templates === 1 ? "" : "s"}` : ""}`;
}

/** What the connected servers offer to Tab, as they list it now. */
export function catalogEntries(servers: readonly ServerSnapshot[]): CatalogEntry[] {
  return servers
    .filter((server) => server.status === "connected")
    .map((server) => ({ name: server.name, ...server.catalog }));
}

/** Resolves once every connected server's first listing of resources and prompts is in. */
export async function catalogsSettled(manager: Pick<McpManager, "servers" | "connection">): Promise<void> {
  const connections = manager.servers().flatMap((server) => manager.connection(server.name) ?? []);
  await Promise.all(connections.map((connection) => connection.catalogSettled()));
}

/** A description's first line, cut for a table cell. */
export function shortDescription(text: string, width = 80): string {
  return firstLine(text, width);
}

function cleaner(redact: (text: string) => string): (text: string) => string {
  return (text) => sanitizeForTerminal(redact(text));
}
