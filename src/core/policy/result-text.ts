import type { CallToolResult } from "@modelcontextprotocol/client";
import { describeBlob } from "../text/index.js";

/** The default cap on what one tool result may put into the model's context. */
export const DEFAULT_RESULT_CHAR_LIMIT = 40_000;

/** A result as text: its content blocks, and its structuredContent as indented JSON if it has any. */
export interface ResultText {
  content: string;
  structured: string | undefined;
  /** Each image, sound and binary resource in the content, described (`image/png, 12.3 KB`). */
  attachments: string[];
}

/**
 * Both parts of an MCP tool result as text: text blocks as they are, other content as a short
 * description (describeBlob), structured content as indented JSON.
 */
export function resultText(result: CallToolResult): ResultText {
  const attachments: string[] = [];
  const described = (mimeType: string | undefined, data: string): string => {
    const description = describeBlob(mimeType, data);
    attachments.push(description);
    return description;
  };
  const parts = result.content.map((block) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "image":
      case "audio":
        return `[${block.type}: ${described(block.mimeType, block.data)}; not shown to a text-only model]`;
      case "resource": {
        const { resource } = block;
        if ("text" in resource) return `[resource ${resource.uri}]\n${resource.text}`;
        return `[resource ${resource.uri}: ${described(resource.mimeType, resource.blob)}]`;
      }
      case "resource_link":
        return `[resource link: ${block.name} ${block.uri}]`;
    }
  });
  const { structuredContent } = result;
  return {
    content: parts.join("\n"),
    structured: structuredContent === undefined ? undefined : JSON.stringify(structuredContent, null, 2),
    attachments,
  };
}

/**
 * What a text-only model reads of a result (given its parts as text, redacted or not): the
 * blocks, or the structured content when there are none. The spec asks servers to repeat
 * structured content in a text block, so reading both would mostly read it twice.
 */
export function textForModel(result: CallToolResult, text: Omit<ResultText, "attachments">): string {
  return result.content.length === 0 && text.structured !== undefined ? text.structured : text.content;
}

/** A result as one text, as a text-only model reads it. */
export function toolResultText(result: CallToolResult): string {
  return textForModel(result, resultText(result));
}

export interface CappedText {
  text: string;
  truncated: boolean;
  omittedChars: number;
}

/** Cuts text to `limit` characters without splitting a surrogate pair, saying how much was cut. */
export function capText(text: string, limit = DEFAULT_RESULT_CHAR_LIMIT, total = text.length): CappedText {
  if (text.length <= limit && total <= text.length) return { text, truncated: false, omittedChars: 0 };
  let cut = Math.min(limit, text.length);
  const last = text.charCodeAt(cut - 1);
  if (cut === limit && last >= 0xd800 && last <= 0xdbff) cut -= 1;
  const omittedChars = total - cut;
  return {
    text: `${text.slice(0, cut)}\n[truncated: ${omittedChars} of ${total} characters omitted]`,
    truncated: true,
    omittedChars,
  };
}
