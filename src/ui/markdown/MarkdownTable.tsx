import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { Tokens } from "marked";
import type { ReactNode } from "react";
import { displayWidth } from "../../core/text/index.js";
import { inlineText, renderInline } from "./markdown-inline.js";
import { tableWidths } from "./markdown-table-layout.js";
import type { Theme } from "../parts/theme.js";

/**
 * A markdown table in columns fitted to `width`: cells wrap inside their column, separated by
 * `│` lines as tall as the row. When even narrow columns do not fit, each row is shown as
 * `header: value` lines instead.
 */
export function MarkdownTable({
  table,
  theme,
  width,
}: {
  table: Tokens.Table;
  theme: Theme;
  width: number;
}): ReactNode {
  const rows = [table.header, ...table.rows];
  const widths = tableWidths(
    rows.map((row) => row.map((cell) => inlineText(cell.tokens, theme))),
    width,
  );
  if (!widths) return <TableAsRecords table={table} theme={theme} />;
  const rule = widths.map((w, column) =>
    "─".repeat(w + (column > 0 ? 1 : 0) + (column < widths.length - 1 ? 1 : 0)),
  );
  return (
    <Box flexDirection="column">
      <Row cells={table.header} widths={widths} theme={theme} header />
      <Text color={theme.color("muted")}>{rule.join("┼")}</Text>
      {table.rows.map((row, index) => (
        <Row key={index} cells={row} widths={widths} theme={theme} header={false} />
      ))}
    </Box>
  );
}

function Row({
  cells,
  widths,
  theme,
  header,
}: {
  cells: readonly Tokens.TableCell[];
  widths: readonly number[];
  theme: Theme;
  header: boolean;
}): ReactNode {
  const last = widths.length - 1;
  return (
    <Box flexDirection="row">
      {widths.map((width, column) => {
        const cell = cells[column];
        // Alignment is for cells on one line; a wrapped cell reads best from the left.
        const oneLine = displayWidth(inlineText(cell?.tokens, theme)) <= width;
        const align =
          !oneLine || !cell?.align || cell.align === "left"
            ? "flex-start"
            : cell.align === "right"
              ? "flex-end"
              : "center";
        return (
          <Box
            key={column}
            width={width + (column > 0 ? 2 : 0) + (column < last ? 1 : 0)}
            flexShrink={0}
            justifyContent={align}
            paddingLeft={column > 0 ? 1 : 0}
            paddingRight={column < last ? 1 : 0}
            borderStyle="single"
            borderColor={theme.color("muted")}
            borderTop={false}
            borderBottom={false}
            borderRight={false}
            borderLeft={column > 0}
          >
            <Text bold={header}>{renderInline(cell?.tokens, theme, `c${column}`)}</Text>
          </Box>
        );
      })}
    </Box>
  );
}

function TableAsRecords({ table, theme }: { table: Tokens.Table; theme: Theme }): ReactNode {
  const names = table.header.map((cell) => inlineText(cell.tokens, theme));
  return (
    <Box flexDirection="column">
      {table.rows.map((row, index) => (
        <Box key={index} flexDirection="column" marginTop={index > 0 ? 1 : 0}>
          {row.map((cell, column) => (
            <Box key={column} flexDirection="row">
              <Box flexShrink={0}>
                <Text bold>{names[column] ?? ""}: </Text>
              </Box>
              <Box flexShrink={1}>
                <Text>{renderInline(cell.tokens, theme, `r${index}.${column}`)}</Text>
              </Box>
            </Box>
          ))}
        </Box>
      ))}
    </Box>
  );
}
