import { displayPretty } from "../core/policy/redacted-json.js";
import { revealHiddenText } from "../core/policy/hidden-text.js";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { padToWidth } from "../core/text/index.js";
import { MARK, type DoctorStep, type StepStatus } from "./doctor-steps.js";

/** One server's examination: what was started, and every step with its evidence. */
export interface DoctorReport {
  server: string;
  launch: string;
  steps: DoctorStep[];
}

const NAME_WIDTH = 14;

/**
 * One screen per server: a heading, then one line per step — mark, name, what happened — with its
 * evidence indented under it, and a closing count. Redacted, with terminal controls removed and
 * invisible characters written out: it quotes what the server wrote.
 */
export function renderDoctor(report: DoctorReport, redact: (text: string) => string): string {
  const shown = (text: string): string => sanitizeForTerminal(revealHiddenText(redact(text)));
  const lines = [`doctor: ${report.server} (${report.launch})`];
  for (const step of report.steps) {
    lines.push(`  ${MARK[step.status]} ${padToWidth(step.step, NAME_WIDTH)} ${step.summary}`);
    for (const detail of step.details) lines.push(`      ${detail}`);
  }
  lines.push(`${report.server}: ${totals(report.steps)}`);
  return `${lines.map(shown).join("\n")}\n`;
}

/** `2 failed, 1 warning, 4 passed, 1 skipped`. */
function totals(steps: readonly DoctorStep[]): string {
  const count = (status: StepStatus): number => steps.filter((step) => step.status === status).length;
  return [
    `${count("failed")} failed`,
    `${count("warning")} warning(s)`,
    `${count("passed")} passed`,
    `${count("skipped")} skipped`,
  ].join(", ");
}

/** Whether every step of every server passed, or only warned or was skipped. */
export function allPassed(reports: readonly DoctorReport[]): boolean {
  return reports.every((report) => report.steps.every((step) => step.status !== "failed"));
}

/** The examinations as one JSON document for CI: `{ ok, servers: [{ server, launch, ok, steps }] }`. */
export function renderDoctorJson(reports: readonly DoctorReport[], redact: (text: string) => string): string {
  const servers = reports.map((report) => ({
    server: report.server,
    launch: report.launch,
    ok: allPassed([report]),
    steps: report.steps,
  }));
  return `${displayPretty({ ok: allPassed(reports), servers }, redact)}\n`;
}
