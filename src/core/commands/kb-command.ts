import {
  describeRelevance,
  plainExcerpt,
  type KbStats,
  type KnowledgeBase,
  type RefreshReport,
} from "../kb/index.js";
import { formatBytes, oneLine } from "../text/index.js";
import type { CommandContext, CommandResult, SlashCommand } from "./command-types.js";
import { quotedWord, typedAfterFirstWord } from "./command-words.js";
import {
  describeChange,
  KB_SEARCH_RESULTS,
  updatedWhen,
  runKbRequest,
  type KbOutcome,
  type KbRequest,
} from "./kb-action.js";

const EXCERPT_WIDTH = 160;
const ADD_USAGE = "Usage: /kb add <path|url> [--as <name>] [--force]";
/** Said after a usage line when the words were more than it takes. */
const WITH_SPACES = ` (a name with spaces goes in quotes: "my notes.md")`;

/** `/kb`: the TUI's words for the knowledge-base command of kb-action.ts, rendered as tables. */
export const kbCommand: SlashCommand = {
  name: "kb",
  usage: "[search <query> | reindex | add <path|url> | remove <path>]",
  description: "knowledge-base stats; search it; re-read changed files; add or remove a document",
  complete: (args) => (args.length === 0 ? ["search", "reindex", "add", "remove"] : []),
  run: async (context, args, typed) => {
    const kb = readyKnowledge(context);
    if ("kind" in kb) return kb;
    const request = parseWords(args, typed);
    if ("kind" in request) return request;
    const documents = context.documents;
    const outcome = await runKbRequest(
      kb,
      request,
      documents && { ...documents, signal: new AbortController().signal },
    );
    return render(outcome, request);
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

function parseWords(args: readonly string[], typed: string): KbRequest | CommandResult {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "stats") return { action: "stats" };
  if (sub === "reindex") return { action: "reindex" };
  if (sub === "search") {
    // The query as typed, quotes and apostrophes included.
    const query = typedAfterFirstWord(typed).trim();
    return query ? { action: "search", query, k: KB_SEARCH_RESULTS } : usage("Usage: /kb search <query>");
  }
  if (sub === "add") return parseAdd(rest);
  if (sub === "remove") {
    const [path, ...extra] = rest;
    return path === undefined || extra.length > 0
      ? usage(`Usage: /kb remove <path>${extra.length > 0 ? WITH_SPACES : ""}`)
      : { action: "remove", path };
  }
  return usage(
    `Unknown /kb subcommand "${sub}"; use /kb, /kb search <query>, /kb reindex, /kb add <path|url> or /kb remove <path>.`,
  );
}

function parseAdd(args: readonly string[]): KbRequest | CommandResult {
  let as: string | undefined;
  let force = false;
  let yes = false;
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--force") force = true;
    else if (arg === "--yes") yes = true;
    else if (arg === "--as") {
      as = args[++i];
      if (as === undefined) return usage(`--as needs a name. ${ADD_USAGE}`);
    } else if (arg.startsWith("--")) return usage(`Unknown option ${arg}. ${ADD_USAGE}`);
    else words.push(arg);
  }
  const [source, ...extra] = words;
  if (source === undefined || extra.length > 0)
    return usage(`${ADD_USAGE}${extra.length > 0 ? WITH_SPACES : ""}`);
  return { action: "add", source, as, force, yes };
}

const usage = (message: string): CommandResult => ({ kind: "error", message });

function render(outcome: KbOutcome, request: KbRequest): CommandResult {
  switch (outcome.kind) {
    case "stats":
      return stats(outcome.stats);
    case "search":
      return search(outcome);
    case "reindexed":
      return { kind: "text", text: reindexed(outcome.report) };
    case "changed":
      return { kind: "text", text: describeChange(outcome.change, outcome.verb) };
    case "refused":
      return { kind: "error", message: outcome.refusal.reason };
    case "not_fetched": {
      const confirm = `/kb add --yes ${confirmWords(request).join(" ")}`;
      return {
        kind: "text",
        text: outcome.asked
          ? `Not fetched (${outcome.reason}): ${outcome.source}. ${confirm} fetches it without asking.`
          : `Fetching ${outcome.source} reaches ${outcome.host}: an external call, so it needs your yes. ` +
            `To fetch it and add it to the knowledge base, type ${confirm}`,
      };
    }
  }
}

/** The words of the `/kb add` that was refused, so the person can confirm it as typed. */
function confirmWords(request: KbRequest): string[] {
  if (request.action !== "add") return [];
  return [
    quotedWord(request.source),
    ...(request.as === undefined ? [] : ["--as", quotedWord(request.as)]),
    ...(request.force ? ["--force"] : []),
  ];
}

function stats(info: KbStats): CommandResult {
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

function search({ query, hits }: Extract<KbOutcome, { kind: "search" }>): CommandResult {
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

function reindexed(report: RefreshReport): string {
  const skipped = report.skipped.length > 0 ? `, ${report.skipped.length} skipped` : "";
  const nothing = report.added.length + report.updated.length + report.removed.length === 0;
  return (
    `Reindexed in ${report.durationMs} ms: ${report.added.length} added, ${report.updated.length} updated, ` +
    `${report.removed.length} removed, ${report.unchanged} unchanged${skipped}` +
    (nothing ? " (nothing changed)." : ".")
  );
}
