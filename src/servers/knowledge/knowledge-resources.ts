import { ProtocolError, ProtocolErrorCode, type McpServer } from "@modelcontextprotocol/server";
import { lineRange } from "../../core/kb-docs/line-range.js";
import { revealControls } from "../../core/policy/sanitize-terminal.js";
import { documentUri, LINE_RANGE_TEMPLATE, parseDocumentUri } from "./kb-uri.js";
import type { KnowledgeService } from "./knowledge-service.js";

/** Resources per resources/list page: a client pages on with the cursor. */
export const RESOURCE_PAGE_SIZE = 100;

/**
 * Every document as `kb://<path>`, listed in pages, plus a template for a line range. Set on
 * the low-level server rather than through McpServer.registerResource, whose list has no pages.
 */
export function registerKnowledgeResources(server: McpServer, service: KnowledgeService): void {
  const { catalog, redact } = service;
  const low = server.server;
  low.registerCapabilities({ resources: { listChanged: true } });

  low.setRequestHandler("resources/list", (request) => {
    const after = decodeCursor(request.params?.cursor);
    const all = catalog.list();
    const from = after === undefined ? 0 : all.findIndex((entry) => entry.path > after);
    const page = from === -1 ? [] : all.slice(from, from + RESOURCE_PAGE_SIZE);
    const last = page.at(-1);
    const more = last !== undefined && from + page.length < all.length;
    return {
      resources: page.map((entry) => ({
        uri: documentUri(entry.path),
        // A client shows the name as is: controls and BiDi overrides in it are written out.
        name: revealControls(entry.path),
        mimeType: entry.mimeType,
        size: entry.size,
      })),
      ...(more ? { nextCursor: Buffer.from(last.path).toString("base64url") } : {}),
    };
  });

  low.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: [
      {
        uriTemplate: LINE_RANGE_TEMPLATE,
        name: "document-lines",
        title: "Lines of a knowledge-base document",
        description:
          "A range of lines of one document, e.g. kb://runbooks/deploy.md?startLine=10&endLine=40.",
      },
    ],
  }));

  low.setRequestHandler("resources/read", async (request) => {
    const { uri } = request.params;
    const parsed = parseDocumentUri(uri);
    if (!parsed.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, parsed.reason);
    const document = await catalog.read(parsed.path);
    if (!document.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, document.reason);
    const ranged = parsed.startLine !== undefined || parsed.endLine !== undefined;
    let text = document.text;
    if (ranged) {
      const range = lineRange(document.text, document.lineCount, parsed.startLine, parsed.endLine);
      if (!range.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, range.reason);
      text = range.text;
    }
    return { contents: [{ uri, mimeType: document.mimeType, text: redact(text) }] };
  });
}

/** The cursor is the last path of the page before: stable while documents come and go. */
function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const path = Buffer.from(cursor, "base64url").toString("utf8");
  if (path === "" || Buffer.from(path).toString("base64url") !== cursor) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      "The resources/list cursor is not one this server gave out.",
    );
  }
  return path;
}
