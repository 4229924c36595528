import type { Client } from "@modelcontextprotocol/client";
import type { LogMessageParams, Root } from "../deprecated-mcp.js";
import type { ServerRequestHandlers } from "../person/server-request-handlers.js";
import type { QuestionHold } from "./question-hold.js";

/** Where one server's questions and news go. */
export interface ClientHandlers {
  server: string;
  /** Answers sampling and elicitation, asking the person (or declining where nobody can be). */
  requests: ServerRequestHandlers;
  /** The roots offered, or undefined where roots are not offered to this server. */
  roots: (() => Root[]) | undefined;
  questions: QuestionHold;
  toolsChanged(): void;
  resourcesChanged(): void;
  promptsChanged(): void;
  resourceUpdated(uri: string): void;
  log(params: LogMessageParams): void;
}

/**
 * Registers what a server may ask mcpterm and tell it. The same handlers serve both eras: a 2025
 * server sends sampling, elicitation and roots requests of its own, and a 2026 server asks for
 * them inside its answer (`input_required`, SEP-2322), which the SDK fulfils through these very
 * handlers before it sends the request again. Either way the person sees the same panels, and
 * one-shot mode declines the same way.
 */
export function registerClientHandlers(client: Client, handlers: ClientHandlers): void {
  const { requests, server, questions } = handlers;
  const { roots } = handlers;
  // Only a client that declared roots may answer roots/list (the SDK refuses the handler otherwise).
  if (roots) client.setRequestHandler("roots/list", () => ({ roots: roots() }));
  client.setRequestHandler("sampling/createMessage", (request, ctx) =>
    questions.during(() => requests.createMessage(server, request.params, ctx.mcpReq.signal)),
  );
  client.setRequestHandler("elicitation/create", (request, ctx) =>
    questions.during(() => requests.elicit(server, request.params, ctx.mcpReq.signal)),
  );
  // Our own handlers rather than the SDK's listChanged option: a change is marked the moment it
  // is announced (calls then wait for the new list), and every page is listed, not just the first.
  client.setNotificationHandler("notifications/tools/list_changed", () => handlers.toolsChanged());
  client.setNotificationHandler("notifications/resources/list_changed", () => handlers.resourcesChanged());
  client.setNotificationHandler("notifications/prompts/list_changed", () => handlers.promptsChanged());
  client.setNotificationHandler("notifications/resources/updated", (notification) =>
    handlers.resourceUpdated(notification.params.uri),
  );
  client.setNotificationHandler("notifications/message", (notification) => handlers.log(notification.params));
}
