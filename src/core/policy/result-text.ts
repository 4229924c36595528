import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describeBlob } from "../text/index.js";

/** The default cap on what one tool result may put into the model's context. */
export const DEFAULT_RESULT_CHAR_LIMIT = 40_000;

/**
 * Turns an MCP tool result into text for a text-only model: text blocks as they are, other
 * content as a short description (describeBlob), structured content as JSON when there is nothing else.
 */
export function toolResultText(result: CallToolResult): string {
  const parts = result.content.map((block) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "image":
      case "audio":
        return `[${block.type}: ${describeBlob(block.mimeType, block.data)}; not shown to a text-only model]`;
      case "resource": {
        const { resource } = block;
        if ("text" in resource) return `[resource ${resource.uri}]\n${resource.text}`;
        return `[resource ${resource.uri}: ${describeBlob(resource.mimeType, resource.blob)}]`;
      }
      case "resource_link":
        return `[resource link: ${block.name} ${block.uri}]`;
    }
  });
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent, null, 2);
  }
  return parts.join("\n");
}

export interface CappedText {
  text: string;
  truncated: boolean;
  omittedChars: number;
}

/** Cuts text to `limit` characters without splitting a surrogate pair, saying how much was cut. */
export function capText(text: string, limit = DEFAULT_RESULT_CHAR_LIMIT): CappedText {
  if (text.length <= limit) return { text, truncated: false, omittedChars: 0 };
  let cut = limit;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  const omittedChars = text.length - cut;
  return {
    text: `${text.slice(0, cut)}\n[truncated: ${omittedChars} of ${text.length} characters omitted]`,
    truncated: true,
    omittedChars,
  };
}
