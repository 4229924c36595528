import { describeRelevance, plainExcerpt, type KnowledgeBase } from "../kb/index.js";
import { formatBytes, oneLine } from "../text/index.js";
import type { CommandContext, CommandResult, SlashCommand } from "./command-types.js";
import { addDocumentCommand, removeDocumentCommand } from "./kb-documents.js";
import { localMinute } from "./resume-command.js";

const SEARCH_RESULTS = 5;
const EXCERPT_WIDTH = 160;

export const kbCommand: SlashCommand = {
  name: "kb",
  usage: "[search <query> | reindex | add <path|url> | remove <path>]",
  description: "knowledge-base stats; search it; re-read changed files; add or remove a document",
  complete: (args) => (args.length === 0 ? ["search", "reindex", "add", "remove"] : []),
  run: async (context, args) => {
    const kb = readyKnowledge(context);
    if ("kind" in kb) return kb;
    const [sub, ...rest] = args;
    if (sub === undefined || sub === "stats") return stats(kb);
    if (sub === "search") {
      const query = rest.join(" ").trim();
      if (!query) return { kind: "error", message: "Usage: /kb search <query>" };
      return search(kb, query);
    }
    if (sub === "add") return addDocumentCommand(kb, context.documents, rest);
    if (sub === "remove") return removeDocumentCommand(kb, context.documents, rest);
    if (sub === "reindex") {
      const report = await kb.refresh();
      const changed = report.added.length + report.updated.length + report.removed.length;
      const skipped = report.skipped.length > 0 ? `, ${report.skipped.length} skipped` : "";
      return {
        kind: "text",
        text:
          `Reindexed in ${report.durationMs} ms: ${report.added.length} added, ${report.updated.length} updated, ` +
          `${report.removed.length} removed, ${report.unchanged} unchanged${skipped}` +
          (changed === 0 ? " (nothing changed)." : "."),
      };
    }
    return {
      kind: "error",
      message: `Unknown /kb subcommand "${sub}"; use /kb, /kb search <query>, /kb reindex, /kb add <path|url> or /kb remove <path>.`,
    };
  },
};

function readyKnowledge(context: CommandContext): KnowledgeBase | CommandResult {
  const access = context.knowledge();
  switch (access.state) {
    case "ready":
      return access.kb;
    case "loading":
      return { kind: "error", message: "The knowledge base is still being indexed; try again in a moment." };
    case "off":
      return { kind: "error", message: access.reason };
  }
}

function stats(kb: KnowledgeBase): CommandResult {
  const info = kb.stats();
  return {
    kind: "table",
    title: "Knowledge base",
    columns: ["folder", "files", "chunks", "index size", "updated"],
    rows: [
      [
        info.dir,
        String(info.files),
        String(info.chunks),
        formatBytes(info.indexBytes),
        updatedWhen(info.updatedAt),
      ],
    ],
    note: "/kb search <query> · /kb reindex · /kb add <path|url> · /kb remove <path>",
  };
}

/** When the index was last written, in the person's local time to the minute (it is kept in ISO form). */
function updatedWhen(updatedAt: string | undefined): string {
  if (updatedAt === undefined) return "never";
  const date = new Date(updatedAt);
  return Number.isNaN(date.getTime()) ? updatedAt : localMinute(date);
}

function search(kb: KnowledgeBase, query: string): CommandResult {
  const hits = kb.search(query, { k: SEARCH_RESULTS });
  if (hits.length === 0) return { kind: "text", text: `No passages match "${query}".` };
  return {
    kind: "table",
    title: `Knowledge base: ${query}`,
    columns: ["#", "passage", "relevance", "matched", "excerpt"],
    rows: hits.map((hit, index) => [
      String(index + 1),
      `${hit.path}:${hit.startLine}-${hit.endLine}`,
      describeRelevance(hit.relevance),
      hit.matched.join(", "),
      oneLine(plainExcerpt(hit.text), EXCERPT_WIDTH),
    ]),
  };
}
