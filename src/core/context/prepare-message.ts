import type { AttachedContext } from "../agent/events.js";
import type { UserMessage } from "../agent/session.js";
import { statusPhrase } from "../mcp/types.js";
import { errorMessage } from "../errors.js";
import type { McpManager } from "../mcp/mcp-manager.js";
import type { ServerConnection } from "../mcp/server-connection.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";
import { attachFiles } from "./file-mentions.js";
import { findMentions, mentionedUri, type Mention } from "./mentions.js";
import {
  bindPromptArguments,
  parsePromptInvocation,
  splitArguments,
  type PromptInvocation,
} from "./prompt-arguments.js";
import { promptMessage } from "./prompt-message.js";
import { attachResources, type ReadResource } from "./resource-content.js";

export interface MessageSources {
  manager: Pick<McpManager, "servers" | "connection">;
  redactor: SecretRedactor;
  signal?: AbortSignal;
  /** The working folder, whose files `@path` attaches; without it, `@path` stays text. */
  cwd?: string;
}

/** A message ready for the model, or the one sentence that says why it cannot be sent. */
export type PreparedMessage = { ok: true; message: UserMessage } | { ok: false; reason: string };

/**
 * What the person typed, made into the message the model gets: a server prompt's command
 * (`/everything:args-prompt Paris`) is rendered by its server; `@server:uri` mentions are read
 * and `@path` files of the working folder too, and their content attached. Anything that
 * cannot be done stops the message, with the reason.
 */
export async function prepareMessage(input: string, sources: MessageSources): Promise<PreparedMessage> {
  const invocation = parsePromptInvocation(input);
  if (invocation) return renderPrompt(invocation, sources);
  return prepareMentions(input, sources);
}

/** The mentions of a message attached (files, then resources), without reading it as a command (one-shot mode). */
export async function prepareMentions(input: string, sources: MessageSources): Promise<PreparedMessage> {
  const files =
    sources.cwd === undefined ? undefined : await attachFiles(input, sources.cwd, sources.redactor);
  if (files && !files.ok) return files;
  const resources = await attachMentions(input, sources);
  if (!resources.ok || !files || files.attached.attachments.length === 0) return resources;
  return {
    ok: true,
    message: withAttached({ text: input, attached: files.attached }, resources.message.attached),
  };
}

/** `message` with `more` attached after what it carries already; as it is when there is nothing more. */
export function withAttached(message: UserMessage, more: AttachedContext | undefined): UserMessage {
  if (!more || more.attachments.length === 0) return message;
  const { attached } = message;
  if (!attached || attached.attachments.length === 0) return { ...message, attached: more };
  return {
    ...message,
    attached: {
      attachments: [...attached.attachments, ...more.attachments],
      forModel: [attached.forModel, more.forModel].filter((part) => part).join("\n\n"),
    },
  };
}

/** Whether `input` is a server prompt's command, which is sent as a message rather than run. */
export function isPromptInvocation(input: string): boolean {
  return parsePromptInvocation(input) !== undefined;
}

async function renderPrompt(invocation: PromptInvocation, sources: MessageSources): Promise<PreparedMessage> {
  const command = `/${invocation.server}:${invocation.prompt}`;
  const notSent = "nothing was sent";
  const found = connected(invocation.server, sources);
  if (!found.ok) return { ok: false, reason: `${found.reason} for ${command}; ${notSent}.` };
  await found.connection.catalogSettled();
  const prompts = found.connection.snapshot().catalog.prompts;
  const prompt = prompts.find((candidate) => candidate.name === invocation.prompt);
  if (!prompt) {
    const names = prompts.map((candidate) => candidate.name).join(", ") || "none";
    return {
      ok: false,
      reason: `Server "${invocation.server}" has no prompt "${invocation.prompt}" (its prompts: ${names}); ${notSent}.`,
    };
  }
  let bound: ReturnType<typeof bindPromptArguments>;
  try {
    bound = bindPromptArguments(command, prompt, splitArguments(invocation.rest));
  } catch (error) {
    return { ok: false, reason: `${command}: ${errorMessage(error)}; ${notSent}.` };
  }
  if (!bound.ok) return { ok: false, reason: `${bound.reason.replace(/\.$/, "")}; ${notSent}.` };
  try {
    const options = sources.signal ? { signal: sources.signal } : {};
    const result = await found.connection.getPrompt(invocation.prompt, bound.args, options);
    const message = await promptMessage(
      { server: invocation.server, name: invocation.prompt, args: bound.args },
      result,
      sources.redactor,
    );
    if (message.text.trim() === "" && (message.attached?.forModel ?? "") === "") {
      return { ok: false, reason: `${command} rendered no text; ${notSent}.` };
    }
    return { ok: true, message };
  } catch (error) {
    return { ok: false, reason: `${command} failed: ${errorMessage(error)}; ${notSent}.` };
  }
}

async function attachMentions(input: string, sources: MessageSources): Promise<PreparedMessage> {
  const mentions = findMentions(input);
  if (mentions.length === 0) return { ok: true, message: { text: input } };
  const notSent = "the message was not sent";
  const reads: Array<{ mention: Mention; connection: ServerConnection; uri: string }> = [];
  for (const mention of mentions) {
    const found = connected(mention.server, sources);
    if (!found.ok) return { ok: false, reason: `${found.reason} for ${mention.text}; ${notSent}.` };
    await found.connection.catalogSettled();
    const listed = found.connection.snapshot().catalog.resources;
    const uri = mentionedUri(mention.uri, listed, sources.redactor.redactText);
    if (!reads.some((read) => read.mention.server === mention.server && read.uri === uri))
      reads.push({ mention, connection: found.connection, uri });
  }
  const options = sources.signal ? { signal: sources.signal } : {};
  const results = await Promise.allSettled(
    reads.map((read) => read.connection.readResource(read.uri, options)),
  );
  const resources: ReadResource[] = [];
  for (const [index, result] of results.entries()) {
    const read = reads[index];
    if (!read) continue;
    if (result.status === "rejected") {
      return {
        ok: false,
        reason: `Could not read @${read.mention.server}:${read.uri}: ${errorMessage(result.reason)}; ${notSent}.`,
      };
    }
    resources.push({ server: read.mention.server, uri: read.uri, contents: result.value.contents });
  }
  return { ok: true, message: { text: input, attached: await attachResources(resources, sources.redactor) } };
}

function connected(
  server: string,
  sources: MessageSources,
): { ok: true; connection: ServerConnection } | { ok: false; reason: string } {
  const connection = sources.manager.connection(server);
  if (!connection) {
    const known = sources.manager.servers().map((snapshot) => snapshot.name);
    return {
      ok: false,
      reason: `There is no server named "${server}" (servers: ${known.join(", ") || "none"})`,
    };
  }
  const { status, error } = connection.snapshot();
  if (status !== "connected") {
    return { ok: false, reason: `Server "${server}" ${statusPhrase(status)}${error ? ` (${error})` : ""}` };
  }
  return { ok: true, connection };
}
