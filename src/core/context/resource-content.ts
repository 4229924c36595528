import type { ReadResourceResult } from "@modelcontextprotocol/client";
import type { AttachedContext, MessageAttachment } from "../agent/events.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";
import { capText, DEFAULT_RESULT_CHAR_LIMIT } from "../policy/result-text.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { cleanedPart } from "../policy/cleaned-part.js";
import { cleanServerText, defuseFenceTags } from "../policy/server-text.js";
import { base64Bytes, formatBytes } from "../text/index.js";

/** One item of a resource read (or of a resource embedded in a prompt): text or a base64 blob. */
export type ResourceContents = ReadResourceResult["contents"][number];

/** A resource as it was read, for attaching to a message. */
export interface ReadResource {
  server: string;
  uri: string;
  contents: readonly ResourceContents[];
}

/** Blobs of these types are text in an encoding, and are decoded rather than described. */
const TEXT_TYPES = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|toml)\b|[^;]*\+(json|xml)\b)/i;

/**
 * One item as text: its text, a blob of a text type decoded (when it is valid UTF-8), anything
 * else described by type and size. Not yet sanitized or redacted.
 */
export function contentsText(contents: ResourceContents): { text: string; binary: boolean } {
  if ("text" in contents) return { text: contents.text, binary: false };
  const mimeType = contents.mimeType ?? "application/octet-stream";
  if (TEXT_TYPES.test(mimeType)) {
    try {
      const bytes = Buffer.from(contents.blob, "base64");
      return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), binary: false };
    } catch {
      // Not UTF-8 after all: described like any other blob.
    }
  }
  return {
    text: `[${mimeType}, ${formatBytes(base64Bytes(contents.blob))}; binary content, not shown to a text-only model]`,
    binary: true,
  };
}

/**
 * Resources attached to a message for the model: each item cleaned, all of them together
 * capped at `limit` characters like one tool result, and each fenced as untrusted data from its
 * server, so instructions inside it are read as content.
 */
export async function attachResources(
  resources: readonly ReadResource[],
  redactor: SecretRedactor,
  limit = DEFAULT_RESULT_CHAR_LIMIT,
): Promise<AttachedContext> {
  let left = limit;
  const attachments: MessageAttachment[] = [];
  const blocks: string[] = [];
  for (const resource of resources) {
    let chars = 0;
    let cut = false;
    let binary = false;
    for (const contents of resource.contents) {
      const item = contentsText(contents);
      // Only as much as is attached is cleaned (with a margin, see cleanedPart): a 30 MB resource
      // would otherwise be redacted whole for the 40,000 characters attached.
      const part =
        left > 0
          ? await cleanedPart(item.text, left, "start", (text) => cleanServerText(text, redactor))
          : undefined;
      binary ||= item.binary;
      const capped = part
        ? capText(part.text, left, part.total)
        : {
            text: `[not attached: the message already carries ${limit} characters of resources]`,
            truncated: true,
          };
      cut ||= capped.truncated;
      left = Math.max(0, left - (part?.text.length ?? 0));
      chars += item.text.length;
      blocks.push(fence(resource.server, redactor.redactText(contents.uri), contents.mimeType, capped.text));
    }
    const mimeTypes = [...new Set(resource.contents.map((contents) => contents.mimeType ?? "text"))];
    attachments.push({
      kind: "resource",
      server: resource.server,
      name: redactor.redactText(resource.uri),
      detail: [
        mimeTypes.join(", ") || "empty",
        `${chars.toLocaleString("en-US")} characters`,
        binary ? "binary parts described only" : undefined,
        cut ? `cut to fit ${limit} characters` : undefined,
      ]
        .filter((part) => part !== undefined)
        .join(", "),
    });
  }
  return { attachments, forModel: blocks.join("\n\n") };
}

function fence(server: string, uri: string, mimeType: string | undefined, body: string): string {
  const type = mimeType === undefined ? "" : ` mimeType="${attribute(mimeType)}"`;
  const text = defuseFenceTags(body, "resource");
  return `<resource server="${attribute(server)}" uri="${attribute(uri)}"${type} trust="untrusted">\n${text}\n</resource>`;
}

function attribute(value: string): string {
  return sanitizeForTerminal(value)
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;");
}
