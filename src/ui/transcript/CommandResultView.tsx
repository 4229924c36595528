import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import type { CommandResult } from "../../core/commands/command-types.js";
import { layoutColumns } from "../../core/text/index.js";
import { useTheme } from "../parts/theme.js";

const MAX_CELL = 48;
const GAP = 2;
/** Narrowest the wrapping last column may get before the table turns into cards. */
const MIN_LAST = 16;

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
            <Table
              columns={result.columns}
              rows={result.rows}
              width={width}
              whole={result.wholeCells === true}
            />
          )}
          {result.note ? <Text color={theme.color("muted")}>{result.note}</Text> : null}
        </Box>
      );
  }
}

function Table({
  columns,
  rows,
  width,
  whole,
}: {
  columns: string[];
  rows: string[][];
  width: number;
  whole: boolean;
}): ReactNode {
  const theme = useTheme();
  const table = layoutColumns([columns, ...rows], { maxCell: MAX_CELL, gap: GAP, whole });
  const [header, ...body] = table.rows;
  // Columns fit when all but the last do and the last keeps a useful width (it wraps).
  if (header && table.lastStart + Math.min(table.lastWidth, MIN_LAST) <= width) {
    return (
      <Box flexDirection="column">
        <Box flexDirection="row">
          <Box flexShrink={0}>
            <Text bold>{header.lead}</Text>
          </Box>
          <Text bold>{header.last}</Text>
        </Box>
        {body.map((row, index) => (
          <Box key={index} flexDirection="column">
            {row.above === undefined ? null : <Text>{row.above}</Text>}
            <Box flexDirection="row">
              {/* The leading columns keep the widths laid out for them; only the last one wraps. */}
              <Box flexShrink={0}>
                <Text>{row.lead}</Text>
              </Box>
              <Box flexShrink={1}>
                <Text color={theme.color("muted")}>{row.last}</Text>
              </Box>
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
              // The value wraps under itself, not under its label.
              <Box key={column} flexDirection="row">
                <Box flexShrink={0}>
                  <Text color={theme.color("muted")}> {columns[column + 1]}: </Text>
                </Box>
                <Box flexShrink={1}>
                  <Text>{cell}</Text>
                </Box>
              </Box>
            ) : null,
          )}
        </Box>
      ))}
    </Box>
  );
}
