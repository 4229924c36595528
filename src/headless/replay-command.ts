import type { CliArgs, ServerOverride } from "../args/index.js";
import type { CliIo } from "../common/cli-io.js";
import { loadCommandConfig } from "../common/load-project-config.js";
import { UsageError, type ExitCode } from "../core/errors.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { RecordedSecrets } from "../core/replay/recorded-secrets.js";
import { sessionRedactor } from "../core/session/session-redactor.js";
import { readRecordedCalls } from "../core/trace/read-calls.js";
import { resolveTraceFile } from "../core/trace/trace-files.js";
import { replayCalls } from "./replay-calls.js";
import { renderCallReport, renderReplayJson, replayExitCode, summaryLine } from "./replay-report.js";
import { loadIgnorePaths, replayServers } from "./replay-setup.js";
import { commandManager, debugStderr } from "./with-one-server.js";

type ReplayArgs = Extract<CliArgs, { command: "replay" }>;

/**
 * `mcpterm replay [trace] [--server name=<command or url>] [--json]`: sends the MCP calls of a
 * recorded session again, in order and with no model, and compares each answer with the recorded
 * one. Exit 0 when every answer matches, 1 when one differs or was not replayed, 2 for usage
 * errors, 4 when a server could not be reached: a regression test for a server's own CI.
 */
export async function runReplayCommand(args: ReplayArgs, io: CliIo): Promise<ExitCode> {
  const ignore = await loadIgnorePaths(args, io);
  const file = await resolveTraceFile(args.file, io.cwd);
  const recorded = await readRecordedCalls(file);
  for (const note of recorded.notes) io.stderr.write(`note: ${sanitizeForTerminal(note)}\n`);
  if (recorded.calls.length === 0)
    throw new UsageError(
      `There are no MCP calls to replay in ${file} (tool calls, resource reads or prompt gets that reached a server).`,
    );
  const needed = [...new Set(recorded.calls.map((call) => call.server))];
  const config = await loadCommandConfig(args.common, io);
  const servers = replayServers(config, needed, overridesOf(args, needed, file), io.cwd, io.env);
  const redactor = sessionRedactor(config, io.env);
  const secrets = new RecordedSecrets();
  // What is printed loses the session's secrets and those the recording redacted.
  const redact = (text: string): string => secrets.maskLearned(redactor.redactText(text));
  const manager = await commandManager(
    { config, common: args.common },
    servers,
    io,
    redactor,
    debugStderr(args.common, io),
  );
  try {
    await manager.start();
    for (const server of manager.servers())
      if (server.status !== "connected")
        io.stderr.write(
          `${sanitizeForTerminal(redact(`server "${server.name}" could not be started: ${server.error ?? server.status}`))}\n`,
        );
    if (!args.json)
      io.stdout.write(
        sanitizeForTerminal(
          `replaying ${recorded.calls.length} call(s) from ${file} (${recorded.format === "calls" ? "a calls file" : "a trace"})\n`,
        ),
      );
    const reports = await replayCalls(
      manager,
      recorded.calls,
      {
        yes: args.yes,
        allowSecretArguments: args.allowSecretArguments,
        ask: true,
        ignore,
        timeoutMs: args.timeoutMs,
        slowFactor: args.slowFactor,
        slowMs: args.slowMs,
      },
      {
        io,
        redactor,
        secrets,
        ...(args.json
          ? {}
          : { onReport: (report) => void io.stdout.write(renderCallReport(report, redact)) }),
      },
    );
    io.stdout.write(
      args.json ? renderReplayJson(file, reports, recorded.notes, redact) : summaryLine(reports),
    );
    return replayExitCode(reports);
  } finally {
    await manager.close();
  }
}

/**
 * The servers given on the command line: `--server name=…`, or one typed after `--` (or as
 * `--url`), which stands in for the recording's server when it calls just one.
 */
function overridesOf(args: ReplayArgs, needed: readonly string[], file: string): ServerOverride[] {
  const typed = args.common.target;
  if (!typed) return args.servers;
  const [only, ...more] = needed;
  if (only === undefined || more.length > 0)
    throw new UsageError(
      `${file} calls ${needed.length} servers (${needed.map((name) => JSON.stringify(name)).join(", ")}); a server typed after -- stands in for a recording's only one. Give --server <name>=<command or url> for each instead.`,
    );
  return [{ ...typed, name: only }];
}
