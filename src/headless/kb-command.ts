import type { CliArgs } from "../args.js";
import { ExitCode, UsageError } from "../core/errors.js";
import type { KbHit } from "../core/kb/index.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { formatBytes, oneLine } from "../core/text/index.js";
import type { CliIo } from "../common/cli-io.js";
import { loadProjectConfig } from "../common/load-project-config.js";
import { knowledgeDir, openFreshKnowledge } from "../core/kb/index.js";

type KbArgs = Extract<CliArgs, { command: "kb" }>;

/** `mcpterm kb index | search <q> | stats`: the knowledge base without a model. */
export async function runKbCommand(args: KbArgs, io: CliIo): Promise<ExitCode> {
  const config = await loadProjectConfig(args.common, io);
  const { kb, report } = await openFreshKnowledge(knowledgeDir(args.common.kbDir, config, io.cwd), io.cwd);
  const write = (text: string): void => void io.stdout.write(text);

  switch (args.action) {
    case "index": {
      if (args.json) {
        write(`${JSON.stringify({ ...report, stats: kb.stats() }, null, 2)}\n`);
        return ExitCode.ok;
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
      return ExitCode.ok;
    }
    case "search": {
      const query = args.query ?? "";
      if (query.trim() === "")
        throw new UsageError('mcpterm kb search needs a query, e.g. mcpterm kb search "risk tiers".');
      const hits = kb.search(query, { k: args.k });
      if (args.json) write(`${JSON.stringify(hits, null, 2)}\n`);
      else
        write(hits.length === 0 ? `No passages match "${sanitizeForTerminal(query)}".\n` : renderHits(hits));
      return ExitCode.ok;
    }
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

const EXCERPT_WIDTH = 200;

function renderHits(hits: KbHit[]): string {
  return hits
    .map((hit, index) => {
      const heading = hit.heading ? ` — ${hit.heading}` : "";
      const excerpt = oneLine(hit.text, EXCERPT_WIDTH);
      return sanitizeForTerminal(
        `[${index + 1}] ${hit.path}:${hit.startLine}-${hit.endLine}${heading}  (score ${hit.score.toFixed(2)})\n    ${excerpt}`,
      );
    })
    .join("\n")
    .concat("\n");
}
