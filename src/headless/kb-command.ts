import type { CliArgs } from "../args/index.js";
import { DeniedError, ExitCode, RuntimeError, UsageError } from "../core/errors.js";
import {
  describeChange,
  runKbRequest,
  updatedWhen,
  type KbOutcome,
  type KbRequest,
} from "../core/commands/kb-action.js";
import { describeRelevance, plainExcerpt, type KbHit } from "../core/kb/index.js";
import { redactedPretty } from "../core/policy/redacted-json.js";
import { sanitizeForTerminal, sanitizeOneLine } from "../core/policy/sanitize-terminal.js";
import { sessionRedactor } from "../core/session/session-redactor.js";
import { formatBytes, oneLine } from "../core/text/index.js";
import type { CliIo } from "../common/cli-io.js";
import { terminalPerson } from "../common/terminal-person.js";
import { pageFetcher } from "../common/page-fetcher.js";
import { loadProjectConfig } from "../common/load-project-config.js";
import { resolveEmbeddingsSettings } from "../core/config/index.js";
import { knowledgeDir, openFreshKnowledge } from "../core/kb/index.js";

type KbArgs = Extract<CliArgs, { command: "kb" }>;

/** `mcpterm kb index | search <q> | stats | add <path|url> | remove <path>`: the knowledge base without a model. */
export async function runKbCommand(args: KbArgs, io: CliIo): Promise<ExitCode> {
  const config = await loadProjectConfig(args.common, io);
  const warn = (text: string): void => void io.stderr.write(`mcpterm: ${sanitizeOneLine(text)}\n`);
  const { settings: embeddings, warning } = resolveEmbeddingsSettings(config, io.env, false);
  if (warning) warn(warning);
  const { kb, report } = await openFreshKnowledge(knowledgeDir(args.common.kbDir, config, io.cwd), io.cwd, {
    ...(embeddings ? { embeddings } : {}),
    onWarning: warn,
  });
  // `kb index` asks for what opening the knowledge base has just done: its report is the answer.
  const outcome: KbOutcome =
    args.action === "index"
      ? { kind: "reindexed", report, stats: kb.stats() }
      : await runKbRequest(kb, request(args), {
          cwd: io.cwd,
          fetchPage: pageFetcher(io.network),
          person: terminalPerson(io),
          signal: io.signal,
        });
  return render(outcome, args.json, io, sessionRedactor(config, io.env).redactText);
}

/** The command line's words as the knowledge-base request of core/commands/kb-action.ts. */
function request(args: KbArgs): KbRequest {
  switch (args.action) {
    case "index":
    case "stats":
      return { action: "stats" };
    case "search": {
      const query = args.query ?? "";
      if (query.trim() === "")
        throw new UsageError('mcpterm kb search needs a query, e.g. mcpterm kb search "risk tiers".');
      return { action: "search", query, k: args.k };
    }
    case "add":
      return { action: "add", source: args.source, as: args.as, force: args.force, yes: args.yes };
    case "remove":
      return { action: "remove", path: args.path };
  }
}

/**
 * Text or JSON on stdout; a refusal becomes the error of its kind (exit 2, 3 or 1). JSON is
 * redacted value by value: read in its serialized form, a key after a `\n` escape (`\nghp_…`)
 * has no word boundary before it, and no rule would see it.
 */
function render(outcome: KbOutcome, json: boolean, io: CliIo, redact: (text: string) => string): ExitCode {
  const write = (text: string): void => void io.stdout.write(text);
  const pretty = (value: unknown): string => redactedPretty(value, redact);
  switch (outcome.kind) {
    case "stats": {
      const stats = outcome.stats;
      if (json) write(`${pretty(stats)}\n`);
      else
        write(
          stats.files === 0
            ? `The knowledge base in ${stats.dir} is empty: put .md or .txt files there.\n`
            : `${stats.files} files, ${stats.chunks} chunks, index ${formatBytes(stats.indexBytes)}, ` +
                `updated ${updatedWhen(stats.updatedAt)} (${stats.dir}).\n`,
        );
      return ExitCode.ok;
    }
    case "search":
      if (json) write(`${pretty(outcome.hits)}\n`);
      else
        write(
          outcome.hits.length === 0
            ? `No passages match "${sanitizeForTerminal(outcome.query)}".\n`
            : renderHits(outcome.hits),
        );
      return ExitCode.ok;
    case "reindexed": {
      const { report, stats } = outcome;
      // Indexing is `kb index`'s whole point: an index it could not save is a failed run.
      const done = report.notSaved === undefined ? ExitCode.ok : ExitCode.runtime;
      if (json) {
        write(`${pretty({ ...report, stats })}\n`);
        return done;
      }
      write(
        `Indexed ${stats.files} files (${stats.chunks} chunks) in ${sanitizeForTerminal(stats.dir)}: ` +
          `${report.added.length} added, ${report.updated.length} updated, ${report.removed.length} removed, ` +
          `${report.unchanged} unchanged (${report.durationMs} ms).\n`,
      );
      for (const skipped of report.skipped) {
        io.stderr.write(`skipped ${sanitizeForTerminal(skipped.path)}: ${skipped.reason}\n`);
      }
      return done;
    }
    case "changed": {
      const { change } = outcome;
      write(
        json
          ? `${pretty({ path: change.path, bytes: change.bytes, replaced: change.replaced, report: change.report })}\n`
          : sanitizeForTerminal(`${describeChange(change, outcome.verb)}\n`),
      );
      return ExitCode.ok;
    }
    case "refused": {
      const { kind, reason } = outcome.refusal;
      if (kind === "denied") throw new DeniedError(reason);
      if (kind === "failed") throw new RuntimeError(reason);
      throw new UsageError(reason);
    }
    case "not_fetched":
      throw new DeniedError(
        outcome.asked
          ? `Fetching ${outcome.source} is an external call and needs your yes; it was not given (${outcome.reason}), so nothing was fetched.`
          : `Fetching ${outcome.source} is an external call and needs your yes: run this at a terminal to be asked, or pass --yes.`,
      );
  }
}

const EXCERPT_WIDTH = 200;

function renderHits(hits: KbHit[]): string {
  return hits
    .map((hit, index) => {
      const heading = hit.heading ? ` — ${hit.heading}` : "";
      const excerpt = oneLine(plainExcerpt(hit.text), EXCERPT_WIDTH);
      const matched = hit.matched.length > 0 ? `, matched ${hit.matched.join(", ")}` : "";
      return sanitizeForTerminal(
        `[${index + 1}] ${hit.path}:${hit.startLine}-${hit.endLine}${heading}  (${describeRelevance(hit.relevance)}${matched})\n    ${excerpt}`,
      );
    })
    .join("\n")
    .concat("\n");
}
