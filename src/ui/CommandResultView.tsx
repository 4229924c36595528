import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { CommandResult } from "../core/commands/command-types.js";
import { truncate } from "./format.js";
import { useTheme } from "./theme.js";

const MAX_CELL = 48;
const GAP = 2;

/** A slash command's result: tables as columns when they fit the width, as cards when not. */
export function CommandResultView({
  input,
  result,
  width,
}: {
  input: string;
  result: CommandResult;
  width: number;
}): ReactNode {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <Text color={theme.color("muted")}>› {input}</Text>
      <ResultBody result={result} width={width} />
    </Box>
  );
}

function ResultBody({ result, width }: { result: CommandResult; width: number }): ReactNode {
  const theme = useTheme();
  switch (result.kind) {
    case "error":
      return <Text color={theme.color("error")}>✗ {result.message}</Text>;
    case "text":
      return <Text>{result.text}</Text>;
    case "table":
      return (
        <Box flexDirection="column">
          <Text bold>{result.title}</Text>
          {result.rows.length === 0 ? (
            <Text color={theme.color("muted")}>(none)</Text>
          ) : (
            <Table columns={result.columns} rows={result.rows} width={width} />
          )}
          {result.note ? <Text color={theme.color("muted")}>{result.note}</Text> : null}
        </Box>
      );
  }
}

function Table({ columns, rows, width }: { columns: string[]; rows: string[][]; width: number }): ReactNode {
  const theme = useTheme();
  const widths = columns.map((column, index) =>
    Math.min(MAX_CELL, Math.max(column.length, ...rows.map((row) => (row[index] ?? "").length))),
  );
  const total = widths.reduce((sum, cell) => sum + cell, 0) + GAP * (columns.length - 1);
  const lastStart = total - (widths.at(-1) ?? 0);
  // Columns fit when all but the last do and the last keeps a useful width (it wraps).
  if (lastStart + Math.min(widths.at(-1) ?? 0, 16) <= width) {
    const line = (cells: string[]): string =>
      cells
        .slice(0, -1)
        .map((cell, index) => truncate(cell, widths[index] ?? MAX_CELL).padEnd((widths[index] ?? 0) + GAP))
        .join("");
    return (
      <Box flexDirection="column">
        <Box flexDirection="row">
          <Text bold>{line(columns)}</Text>
          <Text bold>{columns.at(-1)}</Text>
        </Box>
        {rows.map((row, index) => (
          <Box key={index} flexDirection="row">
            <Text>{line(row)}</Text>
            <Box flexShrink={1}>
              <Text color={theme.color("muted")}>{row.at(-1) ?? ""}</Text>
            </Box>
          </Box>
        ))}
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      {rows.map((row, index) => (
        <Box key={index} flexDirection="column" marginBottom={index === rows.length - 1 ? 0 : 1}>
          <Text bold>{row[0]}</Text>
          {row.slice(1).map((cell, column) =>
            cell ? (
              <Text key={column}>
                <Text color={theme.color("muted")}> {columns[column + 1]}: </Text>
                {cell}
              </Text>
            ) : null,
          )}
        </Box>
      ))}
    </Box>
  );
}
