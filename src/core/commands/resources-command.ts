import {
  catalogGap,
  catalogsSettled,
  promptLines,
  resourceLines,
  shortDescription,
} from "../context/catalog-view.js";
import { statusPhrase } from "../mcp/types.js";
import { mentionedUri } from "../context/mentions.js";
import { contentsText } from "../context/resource-content.js";
import { cleanServerText } from "../policy/server-text.js";
import { errorMessage } from "../errors.js";
import { capText, DEFAULT_RESULT_CHAR_LIMIT } from "../policy/result-text.js";
import type { ServerSnapshot } from "../mcp/types.js";
import type { CommandContext, CommandResult, SlashCommand } from "./command-types.js";
import { subscribeCommand, unsubscribeCommand } from "./resource-subscriptions.js";

export const resourcesCommand: SlashCommand = {
  name: "resources",
  usage: "[server] | subscribe [server] <uri> | unsubscribe [server] <uri>",
  description:
    "the servers' resources and resource templates; @server:uri in a message attaches one; subscribe shows a resource's updates as they arrive",
  complete: (args, source) => {
    if (args.length === 0) return [...source.servers, "subscribe", "unsubscribe"];
    if (args.length === 1 && (args[0] === "subscribe" || args[0] === "unsubscribe"))
      return [...source.servers, ...(source.resources ?? []).map((entry) => entry.uri)];
    if (args.length === 2 && (args[0] === "subscribe" || args[0] === "unsubscribe"))
      return (source.resources ?? []).filter((entry) => entry.server === args[1]).map((entry) => entry.uri);
    return [];
  },
  run: async (context, args) => {
    // The two words are the subcommands', also when a server bears one: its resources still
    // show under plain /resources.
    if (args[0] === "subscribe") return subscribeCommand(context, args.slice(1));
    if (args[0] === "unsubscribe") return unsubscribeCommand(context, args.slice(1));
    const servers = await chosenServers(context, args[0]);
    if (!Array.isArray(servers)) return servers;
    const redact = context.redactor.redactText;
    const rows: string[][] = [];
    for (const server of servers) {
      const lines = resourceLines(server, redact);
      if (lines.length === 0)
        rows.push([server.name, "", "", "", "", catalogGap(server, "resources") ?? "none"]);
      for (const line of lines)
        rows.push([
          server.name,
          line.kind,
          line.uri,
          line.name,
          line.mimeType,
          shortDescription(line.description),
        ]);
    }
    return {
      kind: "table",
      title: args[0] === undefined ? "Resources" : `Resources of ${args[0]}`,
      columns: ["server", "kind", "uri", "name", "type", "description"],
      rows,
      note: "@server:uri in a message attaches a resource (Tab completes it) · /read <server> <uri> shows one · /resources subscribe <uri> follows one",
    };
  },
};

export const promptsCommand: SlashCommand = {
  name: "prompts",
  usage: "[server]",
  description: "the servers' prompts, each run as /<server>:<prompt> [arguments]",
  complete: (args, source) => (args.length === 0 ? source.servers : []),
  run: async (context, args) => {
    const servers = await chosenServers(context, args[0]);
    if (!Array.isArray(servers)) return servers;
    const redact = context.redactor.redactText;
    const rows: string[][] = [];
    for (const server of servers) {
      const lines = promptLines(server, redact);
      if (lines.length === 0) rows.push([server.name, "", catalogGap(server, "prompts") ?? "none"]);
      for (const line of lines) {
        const about = [line.title, line.description].filter((part) => part !== "").join(" — ");
        rows.push([
          server.name,
          `${line.command}${line.usage ? ` ${line.usage}` : ""}`,
          shortDescription(about),
        ]);
      }
    }
    return {
      kind: "table",
      title: args[0] === undefined ? "Prompts" : `Prompts of ${args[0]}`,
      columns: ["server", "command", "description"],
      rows,
      note: 'Arguments go in order or as key=value; quote values with spaces ("New York"). Tab completes them.',
    };
  },
};

/** Longest text /read puts into the transcript. */
const READ_DISPLAY_LIMIT = DEFAULT_RESULT_CHAR_LIMIT;

export const readCommand: SlashCommand = {
  name: "read",
  usage: "<server> <uri>",
  description: "show one resource, such as a resource link a tool returned",
  complete: (args, source) => {
    if (args.length === 0) return source.servers;
    if (args.length === 1)
      return (source.resources ?? []).filter((entry) => entry.server === args[0]).map((entry) => entry.uri);
    return [];
  },
  run: async (context, args) => {
    const [name, typed] = args;
    if (name === undefined || typed === undefined)
      return { kind: "error", message: "Usage: /read <server> <uri>" };
    // A URI has no spaces: words after it were not meant to be dropped without a word.
    if (args.length > 2)
      return {
        kind: "error",
        message: `/read takes one uri, got ${args.length - 1} words after the server; a uri has no spaces (Usage: /read <server> <uri>).`,
      };
    const found = await chosenServers(context, name);
    if (!Array.isArray(found)) return found;
    const connection = context.manager.connection(name);
    const server = found[0];
    if (!connection || server?.status !== "connected") {
      return {
        kind: "error",
        message: `Server "${name}" ${statusPhrase(server?.status)}; try /mcp restart ${name}.`,
      };
    }
    const uri = mentionedUri(typed, server.catalog.resources, context.redactor.redactText);
    try {
      const result = await connection.readResource(uri);
      const parts: string[] = [];
      for (const contents of result.contents) {
        const type = contents.mimeType ? ` (${contents.mimeType})` : "";
        parts.push(
          `${context.redactor.redactText(contents.uri)}${type}`,
          (await cleanServerText(contentsText(contents).text, context.redactor)).text,
        );
      }
      const shown = capText(parts.join("\n"), READ_DISPLAY_LIMIT);
      return { kind: "text", text: shown.text || `${uri} is empty.` };
    } catch (error) {
      return { kind: "error", message: `Reading ${uri} from "${name}" failed: ${errorMessage(error)}` };
    }
  },
};

/** The connected-or-not snapshots of the server named (or of all), once their first listing is in. */
async function chosenServers(
  context: CommandContext,
  name: string | undefined,
): Promise<ServerSnapshot[] | Extract<CommandResult, { kind: "error" }>> {
  const all = context.manager.servers();
  if (name !== undefined && !all.some((server) => server.name === name)) {
    const known = all.map((server) => server.name).join(", ") || "none";
    return { kind: "error", message: `There is no server named "${name}" (servers: ${known}).` };
  }
  await catalogsSettled(context.manager);
  return context.manager.servers().filter((server) => name === undefined || server.name === name);
}
