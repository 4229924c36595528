import type { GetPromptResult, PromptMessage } from "@modelcontextprotocol/client";
import type { UserMessage } from "../agent/session.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";
import { capText, DEFAULT_RESULT_CHAR_LIMIT } from "../policy/result-text.js";
import { base64Bytes, formatBytes } from "../text/index.js";
import { cleanServerText } from "../policy/server-text.js";
import { attachResources, type ReadResource } from "./resource-content.js";

/**
 * A rendered server prompt as the user's next message: its messages' text becomes the words
 * (roles named when the prompt has more than the user's), images and audio are described, and
 * embedded resources are attached fenced as untrusted data, all within `limit` characters.
 * The prompt it came from is attached too, so the transcript and the trace can say so.
 */
export async function promptMessage(
  prompt: { server: string; name: string; args: Record<string, string> },
  result: GetPromptResult,
  redactor: SecretRedactor,
  limit = DEFAULT_RESULT_CHAR_LIMIT,
): Promise<UserMessage> {
  const embedded: ReadResource[] = [];
  const labelled = result.messages.some((message) => message.role !== "user");
  const parts: string[] = [];
  for (const message of result.messages) {
    const { text } = await cleanServerText(contentText(message, prompt.server, embedded), redactor);
    parts.push(labelled ? `[${message.role}]\n${text}` : text);
  }
  const words = capText(parts.join("\n\n"), limit);
  const resources = await attachResources(embedded, redactor, Math.max(0, limit - words.text.length));
  const args = Object.entries(prompt.args).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  const detail = [
    `${result.messages.length} message${result.messages.length === 1 ? "" : "s"}`,
    args.length > 0 ? redactor.redactText(args.join(" ")) : undefined,
    words.truncated ? `cut to fit ${limit} characters` : undefined,
  ].filter((part) => part !== undefined);
  return {
    text: words.text,
    attached: {
      attachments: [
        { kind: "prompt", server: prompt.server, name: prompt.name, detail: detail.join(", ") },
        ...resources.attachments,
      ],
      forModel: resources.forModel,
    },
  };
}

function contentText(message: PromptMessage, server: string, embedded: ReadResource[]): string {
  const { content } = message;
  switch (content.type) {
    case "text":
      return content.text;
    case "image":
    case "audio":
      return `[${content.type}: ${content.mimeType}, ${formatBytes(base64Bytes(content.data))}; not shown to a text-only model]`;
    case "resource_link":
      return `[resource link: ${content.name} ${content.uri}]`;
    case "resource":
      embedded.push({ server, uri: content.resource.uri, contents: [content.resource] });
      return `[resource ${content.resource.uri}, attached below]`;
  }
}
