import { displayWidth, padToWidth, truncateMiddle } from "./display-width.js";

export interface ColumnOptions {
  /** Widest a column other than the last may be; longer cells lose their middle. */
  maxCell: number;
  /** Spaces between columns. */
  gap: number;
}

/** One laid-out row: the fitted and padded leading cells, and the last cell as it was. */
export interface LaidOutRow {
  lead: string;
  last: string;
}

export interface ColumnLayout {
  rows: LaidOutRow[];
  /** Column where the last cell starts; every `lead` is exactly this wide. */
  lastStart: number;
  /** Display width of the widest last cell. */
  lastWidth: number;
}

/**
 * Aligns rows (a header row included, if any) into columns by display width, so CJK and emoji
 * cells line up. The last column is not cut or padded: it is usually the longest (a reason, an
 * excerpt) and the caller lets it wrap.
 */
export function layoutColumns(rows: readonly (readonly string[])[], options: ColumnOptions): ColumnLayout {
  const count = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: count }, (_, column) =>
    Math.max(0, ...rows.map((row) => displayWidth(row[column] ?? ""))),
  );
  const leading = widths.slice(0, -1).map((width) => Math.min(width, options.maxCell));
  const lastStart = leading.reduce((sum, width) => sum + width + options.gap, 0);
  return {
    rows: rows.map((row) => ({
      lead: leading
        .map((width, column) => padToWidth(truncateMiddle(row[column] ?? "", width), width + options.gap))
        .join(""),
      last: count === 0 ? "" : (row[count - 1] ?? ""),
    })),
    lastStart,
    lastWidth: widths.at(-1) ?? 0,
  };
}
