import { describeTarget, ratioOf, targetMet, type Figure } from "./figures.js";
import type { Summary } from "./stats.js";

/** About three significant digits, thousands grouped: enough to compare, not more than a loaded machine can tell. */
export function formatNumber(value: number): string {
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "2,910 (2,700–3,300)": the median first, then the spread over the repeats. */
export function formatSummary(summary: Summary): string {
  if (summary.n === 1) return `${formatNumber(summary.median)} (n=1)`;
  return `${formatNumber(summary.median)} (${formatNumber(summary.min)}–${formatNumber(summary.max)})`;
}

const HEADER = [
  "figure",
  "unit",
  "mcpterm median (min–max)",
  "floor median (min–max)",
  "floor",
  "ratio",
  "target",
  "met?",
];

function row(figure: Figure): string[] {
  const ratio = ratioOf(figure);
  const met = targetMet(figure);
  return [
    figure.name,
    figure.unit,
    formatSummary(figure.mcpterm),
    figure.floor ? formatSummary(figure.floor.summary) : "-",
    figure.floor?.label ?? "-",
    ratio === undefined ? "-" : `${ratio.toFixed(2)}x`,
    describeTarget(figure),
    met === undefined ? "-" : met ? "yes" : "**no**",
  ];
}

/**
 * The whole suite as one Markdown table, padded so it also reads in a terminal; the README's
 * Performance section is this output pasted as it is.
 */
export function formatTable(figures: readonly Figure[]): string {
  const rows = [HEADER, ...figures.map(row)];
  const widths = HEADER.map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  const rule = `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`;
  const [header, ...body] = rows;
  return [line(header ?? []), rule, ...body.map(line)].join("\n");
}
