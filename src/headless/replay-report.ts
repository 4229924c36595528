import { ExitCode } from "../core/errors.js";
import { revealHiddenText } from "../core/policy/hidden-text.js";
import { displayPretty } from "../core/policy/redacted-json.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { lineDiff } from "../core/replay/line-diff.js";
import type { Difference } from "../core/replay/value-diff.js";
import { callLabel } from "../core/trace/recorded-calls.js";
import { oneLine, truncateEnd } from "../core/text/index.js";
import type { CallReport, ReplayStatus } from "./replay-calls.js";

const MARK: Record<ReplayStatus, string> = {
  match: "✓",
  differs: "✗",
  slow: "⧗",
  not_replayed: "⊘",
  unreachable: "!",
};
/** Lines of differences shown per call, so one call cannot push the others off the screen. */
const MAX_DIFF_LINES = 24;
const VALUE_WIDTH = 100;
const LINE_WIDTH = 160;

/** One call as a person reads it: mark, name, arguments, durations, then what differs. */
export function renderCallReport(report: CallReport, redact: (text: string) => string): string {
  const { call } = report;
  const args = call.kind === "resource" ? "" : ` ${oneLine(JSON.stringify(call.arguments), 80)}`;
  const recorded = call.durationMs === undefined ? "" : `, recorded ${call.durationMs} ms`;
  const timing = report.durationMs === undefined ? "" : `  (${report.durationMs} ms${recorded})`;
  const lines = [`${MARK[report.status]} ${report.index} ${callLabel(call)}${args}${timing}`];
  if (report.reason !== undefined) lines.push(`    ${reasonLabel(report)}: ${report.reason}`);
  if (report.slower !== undefined) lines.push(`    slower: ${report.slower}`);
  const diff = report.differences.flatMap(differenceLines);
  lines.push(...diff.slice(0, MAX_DIFF_LINES));
  if (diff.length > MAX_DIFF_LINES)
    lines.push(`    … ${diff.length - MAX_DIFF_LINES} more line(s) differ (--json shows all)`);
  return `${lines.map((line) => shown(line, redact)).join("\n")}\n`;
}

/** What a report's reason says: why it differs, why it was not sent, or that its server was lost sending it. */
function reasonLabel(report: CallReport): string {
  if (report.status === "differs") return "differs";
  // Sent (it took time) and unreachable: the server's process ended during the call.
  if (report.status === "unreachable" && report.durationMs !== undefined) return "server lost";
  return "not replayed";
}

/** The lines that show one difference: a value against a value, or the lines of a text that changed. */
function differenceLines(difference: Difference): string[] {
  const { path, recorded, replayed } = difference;
  if (typeof recorded === "string" && typeof replayed === "string") {
    if (recorded.includes("\n") || replayed.includes("\n")) {
      const changed = lineDiff(recorded.split("\n"), replayed.split("\n"));
      return [
        `  ${path}:`,
        ...changed.map((line) => `    ${line.op} ${line.line}: ${truncateEnd(line.text, LINE_WIDTH)}`),
      ];
    }
    if (recorded.length > VALUE_WIDTH || replayed.length > VALUE_WIDTH) {
      const [before, after] = aroundFirstDifference(recorded, replayed);
      return [`  ${path}:`, `    - ${before}`, `    + ${after}`];
    }
  }
  if (recorded === undefined) return [`  ${path}: new, ${value(replayed)}`];
  if (replayed === undefined) return [`  ${path}: gone, was ${value(recorded)}`];
  return [`  ${path}: ${value(recorded)} → ${value(replayed)}`];
}

/** Both texts cut to the same window around where they first differ. */
function aroundFirstDifference(a: string, b: string): [string, string] {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at += 1;
  const start = Math.max(0, at - 40);
  const cut = (text: string): string =>
    `${start > 0 ? "…" : ""}${truncateEnd(JSON.stringify(text.slice(start)).slice(1, -1), LINE_WIDTH)}`;
  return [cut(a), cut(b)];
}

/** A JSON value on one line: strings quoted, so an empty one, a space or an escape shows. */
function value(item: unknown): string {
  // JSON.stringify(undefined) is undefined, whatever its type says.
  return truncateEnd(item === undefined ? "null" : JSON.stringify(item), VALUE_WIDTH);
}

/** What reaches the terminal: redacted, no control sequences, invisible characters written out. */
function shown(text: string, redact: (text: string) => string): string {
  return sanitizeForTerminal(revealHiddenText(redact(text)));
}

export interface ReplayTotals {
  match: number;
  differs: number;
  slow: number;
  notReplayed: number;
  unreachable: number;
}

export function totalsOf(reports: readonly CallReport[]): ReplayTotals {
  const count = (status: ReplayStatus): number => reports.filter((report) => report.status === status).length;
  return {
    match: count("match"),
    differs: count("differs"),
    slow: count("slow"),
    notReplayed: count("not_replayed"),
    unreachable: count("unreachable"),
  };
}

/** `4 calls: 2 match, 1 differs, 1 not replayed`. */
export function summaryLine(reports: readonly CallReport[]): string {
  const totals = totalsOf(reports);
  const parts = [
    `${totals.match} match`,
    `${totals.differs} differ`,
    ...(totals.slow > 0 ? [`${totals.slow} slow`] : []),
    ...(totals.notReplayed > 0 ? [`${totals.notReplayed} not replayed`] : []),
    ...(totals.unreachable > 0 ? [`${totals.unreachable} unreachable`] : []),
  ];
  return `${reports.length} call(s): ${parts.join(", ")}\n`;
}

/**
 * 4 when a server could not be reached; 1 when any answer differs, a call was much slower than
 * recorded, or a call was not replayed (every result must be seen to match); 0 when every one matched.
 */
export function replayExitCode(reports: readonly CallReport[]): ExitCode {
  const totals = totalsOf(reports);
  if (totals.unreachable > 0) return ExitCode.serverUnavailable;
  return totals.differs > 0 || totals.slow > 0 || totals.notReplayed > 0 ? ExitCode.runtime : ExitCode.ok;
}

/** The whole replay as one JSON document, strings redacted and cleaned like `tools --json`. */
export function renderReplayJson(
  file: string,
  reports: readonly CallReport[],
  notes: readonly string[],
  redact: (text: string) => string,
): string {
  const calls = reports.map((report) => ({
    index: report.index,
    kind: report.call.kind,
    server: report.call.server,
    [report.call.kind === "tool" ? "tool" : report.call.kind === "resource" ? "uri" : "prompt"]:
      report.call.target,
    arguments: report.call.arguments,
    status: report.status,
    ...(report.reason === undefined ? {} : { reason: report.reason }),
    ...(report.slower === undefined ? {} : { slower: report.slower }),
    durationMs: report.durationMs ?? null,
    recordedDurationMs: report.call.durationMs ?? null,
    differences: report.differences.map((difference) => ({
      path: difference.path,
      recorded: difference.recorded ?? null,
      replayed: difference.replayed ?? null,
    })),
  }));
  return `${displayPretty({ file, summary: totalsOf(reports), notes, calls }, redact)}\n`;
}
