import type { CliArgs } from "../args.js";
import { DeniedError, ExitCode, RuntimeError, UsageError } from "../core/errors.js";
import {
  addFile,
  addPage,
  isPageUrl,
  pageUrlProblem,
  removeDocument,
  type DocumentChange,
} from "../core/kb-docs/add-document.js";
import { describeRelevance, plainExcerpt, type KbHit } from "../core/kb/index.js";
import { decideApproval } from "../core/policy/approval-policy.js";
import { commandApprovalRules } from "../core/policy/approval-rules.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
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
  const warn = (text: string): void => void io.stderr.write(`mcpterm: ${sanitizeForTerminal(text)}\n`);
  const { settings: embeddings, warning } = resolveEmbeddingsSettings(config, io.env, false);
  if (warning) warn(warning);
  const { kb, report } = await openFreshKnowledge(knowledgeDir(args.common.kbDir, config, io.cwd), io.cwd, {
    ...(embeddings ? { embeddings } : {}),
    onWarning: warn,
  });
  const write = (text: string): void => void io.stdout.write(text);

  switch (args.action) {
    case "index": {
      // Indexing is this command's whole point: an index it could not save is a failed run.
      const done = report.notSaved === undefined ? ExitCode.ok : ExitCode.runtime;
      if (args.json) {
        write(`${JSON.stringify({ ...report, stats: kb.stats() }, null, 2)}\n`);
        return done;
      }
      const stats = kb.stats();
      write(
        `Indexed ${stats.files} files (${stats.chunks} chunks) in ${kb.dir}: ` +
          `${report.added.length} added, ${report.updated.length} updated, ${report.removed.length} removed, ` +
          `${report.unchanged} unchanged (${report.durationMs} ms).\n`,
      );
      for (const skipped of report.skipped) {
        io.stderr.write(`skipped ${sanitizeForTerminal(skipped.path)}: ${skipped.reason}\n`);
      }
      return done;
    }
    case "search": {
      const query = args.query ?? "";
      if (query.trim() === "")
        throw new UsageError('mcpterm kb search needs a query, e.g. mcpterm kb search "risk tiers".');
      const hits = await kb.retrieve(query, { k: args.k });
      if (args.json) write(`${JSON.stringify(hits, null, 2)}\n`);
      else
        write(hits.length === 0 ? `No passages match "${sanitizeForTerminal(query)}".\n` : renderHits(hits));
      return ExitCode.ok;
    }
    case "add": {
      if (!isPageUrl(args.source)) {
        return changed(await addFile(kb, args.source, io.cwd, args), "Added", args.json, io);
      }
      const problem = pageUrlProblem(args.source);
      if (problem !== undefined) throw new UsageError(problem);
      await approveFetch(args.source, args.yes, io);
      const page = await pageFetcher(io.network)(args.source);
      return changed(await addPage(kb, args.source, page, args), "Added", args.json, io);
    }
    case "remove":
      return changed(await removeDocument(kb, args.path, io.cwd), "Removed", args.json, io);
    case "stats": {
      const stats = kb.stats();
      if (args.json) {
        write(`${JSON.stringify(stats, null, 2)}\n`);
        return ExitCode.ok;
      }
      write(
        stats.files === 0
          ? `The knowledge base in ${stats.dir} is empty: put .md or .txt files there.\n`
          : `${stats.files} files, ${stats.chunks} chunks, index ${formatBytes(stats.indexBytes)}, ` +
              `updated ${stats.updatedAt ?? "never"} (${stats.dir}).\n`,
      );
      return ExitCode.ok;
    }
  }
}

/**
 * Fetching a page is an `external` call, decided by the approval policy over a command's rules
 * as `mcpterm call` is: `--yes` runs it, a person at the terminal is asked, and with nobody to
 * ask it is not run (DeniedError, exit 3).
 */
async function approveFetch(url: string, yes: boolean, io: CliIo): Promise<void> {
  const person = terminalPerson(io);
  const verdict = decideApproval(
    { tier: "external", allowance: { state: "not_allowed" } },
    commandApprovalRules({ yes, interactive: person.absent === undefined }),
  );
  if (verdict.action === "allow") return;
  if (verdict.action === "ask") {
    const answer = await person.approveFetch(
      { url, host: new URL(url).host, reason: verdict.reason },
      io.signal,
    );
    if (answer.approved) return;
  }
  throw new DeniedError(
    `Fetching ${url} is an external call and needs your yes: run this at a terminal to be asked, or pass --yes.`,
  );
}

/** Reports an add or a remove; a refusal becomes the error of its kind (exit 2, 3 or 1). */
function changed(change: DocumentChange, verb: string, json: boolean, io: CliIo): ExitCode {
  if (!change.ok) {
    if (change.kind === "denied") throw new DeniedError(change.reason);
    if (change.kind === "failed") throw new RuntimeError(change.reason);
    throw new UsageError(change.reason);
  }
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ path: change.path, bytes: change.bytes, replaced: change.replaced, report: change.report }, null, 2)}\n`,
    );
    return ExitCode.ok;
  }
  const how = change.replaced ? "Replaced" : verb;
  const where = verb === "Removed" ? "from" : change.replaced ? "in" : "to";
  io.stdout.write(
    sanitizeForTerminal(
      `${how} ${change.path} (${formatBytes(change.bytes)}) ${where} the knowledge base; indexed in ${change.report.durationMs} ms.\n`,
    ),
  );
  return ExitCode.ok;
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
