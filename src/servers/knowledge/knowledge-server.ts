import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { formatSourcesForModel, type KnowledgeBase } from "../../core/kb/index.js";
import { MCPTERM_VERSION } from "../../core/version.js";

/**
 * mcpterm's knowledge base as an MCP server, so other agents (Claude Desktop, Cursor,
 * gemini-cli) can search the same notes with the same ranking and citations.
 */
export function createKnowledgeServer(kb: KnowledgeBase, redact: (text: string) => string): McpServer {
  const server = new McpServer({ name: "mcpterm-knowledge", version: MCPTERM_VERSION });

  server.registerTool(
    "search_knowledge_base",
    {
      title: "Search the knowledge base",
      description:
        "Search the user's local knowledge base (notes, runbooks, specs) for passages about a topic. " +
        "Returns numbered passages with file path and line range; cite them as [n].",
      inputSchema: {
        query: z.string().min(1).describe("What to look for, in the words the documents would use."),
        k: z.number().int().min(1).max(20).optional().describe("How many passages to return (default 5)."),
      },
      outputSchema: {
        hits: z.array(
          z.object({
            path: z.string(),
            startLine: z.number(),
            endLine: z.number(),
            heading: z.string(),
            score: z.number(),
            text: z.string(),
          }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, k }) => {
      const hits = kb.search(query, { k: k ?? 5 }).map((hit) => ({ ...hit, text: redact(hit.text) }));
      const text =
        hits.length > 0 ? formatSourcesForModel(hits) : `No passages in the knowledge base match "${query}".`;
      return { content: [{ type: "text", text }], structuredContent: { hits } };
    },
  );

  server.registerTool(
    "knowledge_base_stats",
    {
      title: "Knowledge base statistics",
      description: "How many files and passages the knowledge base holds, and when it was last indexed.",
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => ({ content: [{ type: "text", text: JSON.stringify(kb.stats(), null, 2) }] }),
  );

  return server;
}
