import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import * as z from "zod";
import { documentText } from "./document-text.js";
import { fetchDocument, FetchFailure, MAX_BODY_BYTES } from "./fetch-url.js";
import { textWindow, truncationNote } from "./text-window.js";

export const DEFAULT_MAX_LENGTH = 20_000;
export const LIMIT_MAX_LENGTH = 200_000;

export interface FetchServerOptions {
  /** Allow loopback, private and link-local addresses (MCPTERM_FETCH_ALLOW_PRIVATE=1). */
  allowPrivate: boolean;
}

const inputSchema = z.object({
  url: z.string().describe("The http:// or https:// URL to fetch."),
  max_length: z
    .number()
    .int()
    .positive()
    .max(LIMIT_MAX_LENGTH)
    .optional()
    .describe(`How many characters to return at most (default ${DEFAULT_MAX_LENGTH}).`),
  start_index: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Character to start from, to read on where an earlier call was cut off (default 0)."),
  raw: z.boolean().optional().describe("Return HTML as is instead of converting it to Markdown."),
});

function failure(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

export function createFetchServer(options: FetchServerOptions): McpServer {
  const server = new McpServer({ name: "mcpterm-fetch", version: "0.1.0" });
  server.registerTool(
    "fetch",
    {
      title: "Fetch a web page",
      description:
        "Fetches a URL over http(s) and returns its content as text: HTML pages as Markdown, JSON " +
        "pretty-printed, plain text and Markdown unchanged. Long content is cut at max_length " +
        "characters; call again with the start_index given in the note to read on. Binary content " +
        "(images, PDFs, archives) is refused.",
      inputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ url, max_length, start_index, raw }): Promise<CallToolResult> => {
      const start = start_index ?? 0;
      try {
        const document = await fetchDocument(url, { allowPrivate: options.allowPrivate });
        const text = documentText(document, raw ?? false);
        const window = textWindow(text, start, max_length ?? DEFAULT_MAX_LENGTH);
        if (start > 0 && start >= window.total) {
          return failure(
            `start_index ${start} is past the end of the content (${window.total} characters); there is nothing more to read.`,
          );
        }
        const parts = [window.text];
        if (document.finalUrl !== url) parts.unshift(`(redirected to ${document.finalUrl})\n`);
        if (document.cut) parts.push(`\n[body cut at ${MAX_BODY_BYTES / 1024 / 1024} MB before conversion]`);
        if (window.nextStart !== undefined) parts.push(`\n\n${truncationNote(start, window)}`);
        return { content: [{ type: "text", text: parts.join("") }] };
      } catch (error) {
        if (error instanceof FetchFailure) return failure(error.message);
        throw error;
      }
    },
  );
  return server;
}
