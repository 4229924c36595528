import { errorMessage } from "../errors.js";
import { mentionedUri } from "../context/mentions.js";
import type { ServerSnapshot } from "../mcp/types.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import type { CommandContext, CommandResult } from "./command-types.js";

export const SUBSCRIBE_USAGE = "/resources subscribe [server] <uri>";
export const UNSUBSCRIBE_USAGE = "/resources unsubscribe [server] <uri>";

/**
 * `/resources subscribe [server] <uri>`: updates to the resource are told as they arrive (a
 * notice with the start of its new content). Without a server, the one that lists the URI, or
 * the only one that takes subscriptions. With nothing after it: the subscriptions there are.
 */
export async function subscribeCommand(
  context: CommandContext,
  args: readonly string[],
): Promise<CommandResult> {
  if (args.length === 0) return subscriptionsTable(context);
  const target = chooseTarget(context, args, SUBSCRIBE_USAGE, [
    (server, uri) => listsUri(context, server, uri),
    (server) => offersSubscriptions(server),
  ]);
  if ("kind" in target) return target;
  const { server, uri } = target;
  const shown = sanitizeForTerminal(context.redactor.redactText(uri));
  try {
    await context.manager.connection(server)?.subscribeResource(uri);
  } catch (error) {
    return {
      kind: "error",
      message: `Subscribing to ${shown} on "${server}" failed: ${errorMessage(error)}`,
    };
  }
  return {
    kind: "text",
    text: `Subscribed to ${shown} on ${server}: its updates are shown as they arrive (/resources unsubscribe ${server} ${shown} ends it).`,
  };
}

/** `/resources unsubscribe [server] <uri>`. */
export async function unsubscribeCommand(
  context: CommandContext,
  args: readonly string[],
): Promise<CommandResult> {
  const target = chooseTarget(context, args, UNSUBSCRIBE_USAGE, [
    (server, uri) => subscribedOn(context, server.name).includes(uri),
    (server, uri) => listsUri(context, server, uri),
  ]);
  if ("kind" in target) return target;
  const { server, uri } = target;
  const shown = sanitizeForTerminal(context.redactor.redactText(uri));
  const ended = await context.manager.connection(server)?.unsubscribeResource(uri);
  if (!ended) return { kind: "error", message: `There is no subscription to ${shown} on "${server}".` };
  return { kind: "text", text: `Unsubscribed from ${shown} on ${server}.` };
}

function subscriptionsTable(context: CommandContext): CommandResult {
  const rows = context.manager
    .servers()
    .flatMap((server) =>
      subscribedOn(context, server.name).map((uri) => [
        server.name,
        sanitizeForTerminal(context.redactor.redactText(uri)),
      ]),
    );
  if (rows.length === 0) return { kind: "text", text: `No subscriptions. ${SUBSCRIBE_USAGE} starts one.` };
  return { kind: "table", title: "Subscriptions", columns: ["server", "uri"], rows, note: UNSUBSCRIBE_USAGE };
}

function subscribedOn(context: CommandContext, server: string): string[] {
  return context.manager.connection(server)?.subscribedResources() ?? [];
}

function listsUri(context: CommandContext, server: ServerSnapshot, uri: string): boolean {
  const redact = context.redactor.redactText;
  return server.catalog.resources.some((resource) => resource.uri === uri || redact(resource.uri) === uri);
}

function offersSubscriptions(server: ServerSnapshot): boolean {
  return server.status === "connected" && server.capabilities?.resources?.subscribe === true;
}

/**
 * The server and URI meant: `[server] <uri>`, or `@server:uri` as in messages; with the URI
 * alone, the servers of the first of `choices` that any server meets, if that is just one.
 */
function chooseTarget(
  context: CommandContext,
  args: readonly string[],
  usage: string,
  choices: ReadonlyArray<(server: ServerSnapshot, uri: string) => boolean>,
): { server: string; uri: string } | Extract<CommandResult, { kind: "error" }> {
  const servers = context.manager.servers();
  const redact = context.redactor.redactText;
  const [first, second] = args;
  if (first === undefined || args.length > 2) return { kind: "error", message: `Usage: ${usage}` };
  if (second !== undefined) {
    const server = servers.find((candidate) => candidate.name === first);
    if (!server) {
      const known = servers.map((candidate) => candidate.name).join(", ") || "none";
      return { kind: "error", message: `There is no server named "${first}" (servers: ${known}).` };
    }
    return { server: first, uri: mentionedUri(second, server.catalog.resources, redact) };
  }
  const mention = /^@([^:\s]+):(.+)$/.exec(first);
  if (
    mention?.[1] !== undefined &&
    mention[2] !== undefined &&
    servers.some((server) => server.name === mention[1])
  )
    return chooseTarget(context, [mention[1], mention[2]], usage, choices);
  // A server's name alone (and no server lists it as a URI): the URI is what is missing.
  if (
    servers.some((server) => server.name === first) &&
    !servers.some((server) => server.catalog.resources.some((resource) => resource.uri === first))
  )
    return { kind: "error", message: `Which URI on "${first}"? Name it after the server: ${usage}.` };
  const candidates =
    choices.map((meets) => servers.filter((server) => meets(server, first))).find((met) => met.length > 0) ??
    [];
  const only = candidates.length === 1 ? candidates[0] : undefined;
  if (only) return { server: only.name, uri: mentionedUri(first, only.catalog.resources, redact) };
  const which = candidates.length > 1 ? candidates.map((server) => server.name).join(", ") : "none of them";
  return {
    kind: "error",
    message: `Which server's ${sanitizeForTerminal(first)}? ${candidates.length > 1 ? `Several could be meant (${which})` : "No server lists it"}; name one: ${usage}.`,
  };
}
