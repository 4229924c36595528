import { displayWidth, padToWidth, truncateMiddle } from "./display-width.js";

export interface ColumnOptions {
  /** Widest a column other than the last may be; longer cells lose their middle. */
  maxCell: number;
  /** Spaces between columns. */
  gap: number;
  /**
   * Never shorten a leading cell: a row whose leading cells do not fit their columns gets them
   * whole on a line of their own (`above`), and its last cell starts the row below (command
   * syntax, which is no use cut).
   */
  whole?: boolean;
}

/** One laid-out row: the fitted and padded leading cells, and the last cell as it was. */
export interface LaidOutRow {
  lead: string;
  last: string;
  /** With `whole`: the leading cells, uncut, on a line above the row (whose lead is then blank). */
  above?: string;
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
    rows.map((row) => displayWidth(row[column] ?? "")),
  );
  // Whole cells too wide go above their row, so their column is as wide as the rest need.
  const leading = widths
    .slice(0, -1)
    .map((cells) =>
      options.whole
        ? Math.max(0, ...cells.filter((width) => width <= options.maxCell))
        : Math.min(Math.max(0, ...cells), options.maxCell),
    );
  const lastStart = leading.reduce((sum, width) => sum + width + options.gap, 0);
  const gap = " ".repeat(options.gap);
  return {
    rows: rows.map((row) => {
      const last = count === 0 ? "" : (row[count - 1] ?? "");
      const cells = leading.map((_, column) => row[column] ?? "");
      if (options.whole && cells.some((cell, column) => displayWidth(cell) > (leading[column] ?? 0)))
        return { lead: " ".repeat(lastStart), last, above: cells.join(gap).trimEnd() };
      return {
        lead: leading
          .map((width, column) => padToWidth(truncateMiddle(cells[column] ?? "", width), width + options.gap))
          .join(""),
        last,
      };
    }),
    lastStart,
    lastWidth: Math.max(0, ...(widths.at(-1) ?? [])),
  };
}
