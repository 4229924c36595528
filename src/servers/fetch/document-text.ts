import { htmlToMarkdown } from "./html-to-markdown.js";
import { FetchFailure, type FetchedDocument } from "./fetch-url.js";

type ContentKind = "html" | "json" | "text";

function contentKind(mediaType: string, body: Uint8Array): ContentKind | undefined {
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml") return "html";
  if (mediaType === "application/json" || mediaType.endsWith("+json")) return "json";
  if (
    mediaType.startsWith("text/") ||
    mediaType.endsWith("+xml") ||
    ["application/xml", "application/javascript", "application/yaml", "application/x-yaml"].includes(
      mediaType,
    )
  ) {
    return "text";
  }
  // No Content-Type at all: read it as text unless it looks binary.
  if (mediaType === "" && !body.subarray(0, 1024).includes(0)) return "text";
  return undefined;
}

function decode(body: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    // An unknown charset label: UTF-8 is the best guess for anything on the web today.
    return new TextDecoder("utf-8").decode(body);
  }
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * The text a model should read from a fetched document: HTML as Markdown (or as is when `raw`),
 * JSON pretty-printed, other text unchanged. Throws `FetchFailure` for binary types.
 */
export function documentText(document: FetchedDocument, raw: boolean): string {
  const mediaType = (document.contentType.split(";")[0] ?? "").trim().toLowerCase();
  const kind = contentKind(mediaType, document.body);
  if (kind === undefined) {
    throw new FetchFailure(
      `${document.finalUrl} is ${mediaType || "binary data"}, which this tool cannot read; it reads HTML, plain text, Markdown and JSON.`,
    );
  }
  const text = decode(document.body, document.contentType);
  if (raw) return text;
  switch (kind) {
    case "html":
      return htmlToMarkdown(text);
    case "json":
      return prettyJson(text);
    case "text":
      return text;
  }
}
