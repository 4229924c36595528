import { revealControls } from "../../core/policy/sanitize-terminal.js";
import {
  ProtocolError,
  ProtocolErrorCode,
  type CompleteResult,
  type McpServer,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { formatSourcesForModel } from "../../core/kb/index.js";
import { documentUri, LINE_RANGE_TEMPLATE } from "./kb-uri.js";
import type { KnowledgeService } from "./knowledge-service.js";

const PROMPT_PASSAGES = 6;
/** The spec caps one completion answer at 100 values. */
const MAX_COMPLETIONS = 100;

export function registerKnowledgePrompts(server: McpServer, service: KnowledgeService): void {
  const { kb, catalog, redact } = service;

  server.registerPrompt(
    "answer_with_sources",
    {
      title: "Answer from the knowledge base",
      description: "Answer a question from the knowledge base's best passages, citing each one used.",
      argsSchema: z.object({ question: z.string().min(1).describe("The question to answer.") }),
    },
    async ({ question }) => {
      const hits = (await kb.retrieve(question, { k: PROMPT_PASSAGES })).map((hit) => ({
        ...hit,
        heading: redact(hit.heading),
        text: redact(hit.text),
      }));
      const sources =
        hits.length > 0
          ? formatSourcesForModel(hits)
          : "(The knowledge base has no passages about this question.)";
      return {
        description: `Answer "${question}" from ${hits.length} passages`,
        messages: [
          {
            role: "user",
            content: {
              type: "text",
              text:
                `Answer this question from the knowledge-base passages below: ${question}\n\n` +
                "Cite every passage you rely on by its number and path, e.g. [1] runbooks/deploy.md:10-24. " +
                "If the passages do not answer the question, say so plainly instead of guessing.\n\n" +
                sources,
            },
          },
        ],
      };
    },
  );

  server.registerPrompt(
    "summarize_document",
    {
      title: "Summarize a document",
      description: "Summarize one knowledge-base document: its purpose, its main points, what to do with it.",
      argsSchema: z.object({
        path: z.string().min(1).describe("The document's path in the knowledge folder."),
      }),
    },
    async ({ path }) => {
      const document = await catalog.read(path);
      if (!document.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, document.reason);
      return {
        description: `Summarize ${document.path}`,
        messages: [
          {
            role: "user",
            content: {
              type: "text",
              text:
                `Summarize the knowledge-base document ${document.path} (attached): what it is for, its ` +
                "main points and any steps or commands it gives. Keep its headings' order.",
            },
          },
          {
            role: "user",
            content: {
              type: "resource",
              resource: {
                uri: documentUri(document.path),
                mimeType: document.mimeType,
                text: redact(document.text),
              },
            },
          },
        ],
      };
    },
  );

  // Set by hand: McpServer's own completion handler only knows templates registered through it.
  server.server.registerCapabilities({ completions: {} });
  server.server.setRequestHandler("completion/complete", (request): CompleteResult => {
    const { ref, argument } = request.params;
    const completesPath =
      (ref.type === "ref/prompt" && ref.name === "summarize_document" && argument.name === "path") ||
      (ref.type === "ref/resource" && ref.uri === LINE_RANGE_TEMPLATE && argument.name === "path");
    if (!completesPath) return { completion: { values: [] } };
    const typed = argument.value.toLowerCase();
    const matches = catalog
      .list()
      .map((entry) => entry.path)
      .filter((path) => path.toLowerCase().startsWith(typed) || path.toLowerCase().includes(`/${typed}`));
    return {
      completion: {
        // Shown in a client's picker: controls and BiDi overrides in a name are written out.
        values: matches.slice(0, MAX_COMPLETIONS).map(revealControls),
        total: matches.length,
        hasMore: matches.length > MAX_COMPLETIONS,
      },
    };
  });
}
