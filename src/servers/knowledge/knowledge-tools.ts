import type { CallToolResult, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { formatSourcesForModel } from "../../core/kb/index.js";
import { lineRange } from "../../core/kb-docs/line-range.js";
import { documentUri } from "./kb-uri.js";
import type { KnowledgeService } from "./knowledge-service.js";

/** Every tool here only reads the local folder: the same answer each time, nothing outside (but see search). */
const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

const DEFAULT_K = 5;

function refused(reason: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: reason }] };
}

export function registerKnowledgeTools(server: McpServer, service: KnowledgeService): void {
  const { kb, catalog, redact } = service;

  server.registerTool(
    "search_knowledge_base",
    {
      title: "Search the knowledge base",
      description:
        "Search the team's knowledge base (notes, runbooks, specs) for passages about a topic. " +
        "Returns numbered passages with file path and line range; cite them as [n], and read more " +
        "of a document with read_document.",
      inputSchema: z.object({
        query: z.string().min(1).describe("What to look for, in the words the documents would use."),
        k: z
          .number()
          .int()
          .min(1)
          .max(20)
          .optional()
          .describe(`How many passages to return (default ${DEFAULT_K}).`),
      }),
      outputSchema: z.object({
        hits: z
          .array(
            z.object({
              path: z.string().describe("The document, relative to the knowledge folder."),
              uri: z.string().describe("The passage as a kb:// resource with its line range."),
              startLine: z.number().describe("First line of the passage, 1-based."),
              endLine: z.number().describe("Last line of the passage, inclusive."),
              heading: z.string().describe('The heading path, e.g. "Deploy > Rollback"; "" for none.'),
              score: z
                .number()
                .describe(
                  "The ranking score (BM25, or fused with embeddings when configured); higher is better, comparable within one search.",
                ),
              relevance: z
                .number()
                .describe(
                  "0..1: the share of the query's weight the passage holds (1 = every informative word).",
                ),
              matched: z.array(z.string()).describe("The query's words the passage matched, as typed."),
              text: z.string().describe("The passage."),
            }),
          )
          .describe("The passages, best first."),
      }),
      // Honest about where the query goes: to the embeddings endpoint too, when that is elsewhere.
      annotations: { ...READ_ONLY, openWorldHint: service.queriesLeaveMachine },
    },
    async ({ query, k }) => {
      const hits = (await kb.retrieve(query, { k: k ?? DEFAULT_K })).map((hit) => ({
        path: hit.path,
        uri: documentUri(hit.path, hit),
        startLine: hit.startLine,
        endLine: hit.endLine,
        heading: redact(hit.heading),
        score: hit.score,
        relevance: hit.relevance,
        matched: hit.matched,
        text: redact(hit.text),
      }));
      const text =
        hits.length > 0 ? formatSourcesForModel(hits) : `No passages in the knowledge base match "${query}".`;
      return { content: [{ type: "text", text }], structuredContent: { hits } };
    },
  );

  server.registerTool(
    "read_document",
    {
      title: "Read a knowledge-base document",
      description:
        "Read one document of the knowledge base, whole or a range of lines, by the path search " +
        "results show (relative to the knowledge folder). Paths outside the folder are refused.",
      inputSchema: z.object({
        path: z
          .string()
          .min(1)
          .describe('The document\'s path as search results show it, e.g. "runbooks/deploy.md".'),
        startLine: z.number().int().min(1).optional().describe("First line to read, 1-based (default 1)."),
        endLine: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe("Last line to read, inclusive (default the last)."),
      }),
      outputSchema: z.object({
        path: z.string().describe("The document, relative to the knowledge folder."),
        startLine: z.number().describe("First line returned."),
        endLine: z.number().describe("Last line returned."),
        lineCount: z.number().describe("How many lines the document has."),
        nextLine: z.number().optional().describe("Where to go on when the range was cut at the size limit."),
        text: z.string().describe("The lines."),
      }),
      annotations: READ_ONLY,
    },
    async ({ path, startLine, endLine }) => {
      const document = await catalog.read(path);
      if (!document.ok) return refused(document.reason);
      const range = lineRange(document.text, document.lineCount, startLine, endLine);
      if (!range.ok) return refused(range.reason);
      const text = redact(range.text);
      const more =
        range.nextLine === undefined
          ? ""
          : `\n[cut at the size limit; read on with startLine ${range.nextLine}]`;
      return {
        content: [
          {
            type: "text",
            text: `${document.path}:${range.startLine}-${range.endLine} (of ${document.lineCount} lines)\n${text}${more}`,
          },
        ],
        structuredContent: {
          path: document.path,
          startLine: range.startLine,
          endLine: range.endLine,
          lineCount: document.lineCount,
          ...(range.nextLine === undefined ? {} : { nextLine: range.nextLine }),
          text,
        },
      };
    },
  );

  server.registerTool(
    "knowledge_base_stats",
    {
      title: "Knowledge base statistics",
      description: "How many documents and passages the knowledge base holds, and when it was last indexed.",
      outputSchema: z.object({
        files: z.number().describe("Documents indexed."),
        chunks: z.number().describe("Passages indexed."),
        indexBytes: z.number().describe("Size of the index on disk."),
        updatedAt: z.string().optional().describe("When the index last changed (ISO 8601)."),
      }),
      annotations: READ_ONLY,
    },
    () => {
      const { files, chunks, indexBytes, updatedAt } = kb.stats();
      const stats = { files, chunks, indexBytes, ...(updatedAt === undefined ? {} : { updatedAt }) };
      return { content: [{ type: "text", text: JSON.stringify(stats, null, 2) }], structuredContent: stats };
    },
  );
}
