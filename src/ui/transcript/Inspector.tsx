import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import { fitParts, type Part } from "../parts/fit-parts.js";
import { CONTINUED, inspected, inspectorViewport } from "./inspector-view.js";
import { useTheme } from "../parts/theme.js";
import { ToolPanel } from "./ToolPanel.js";
import type { TranscriptState } from "./transcript-types.js";

/** Border and padding on each side. */
const FRAME = 4;

/**
 * What the inspector's scrolled body may use of a window (`bodyLines` is what the App leaves for
 * a panel); the App sizes key scrolling by the same numbers.
 */
export function inspectorSize(columns: number, bodyLines: number): { width: number; height: number } {
  return { width: Math.max(8, columns - FRAME), height: Math.max(3, bodyLines) };
}

/**
 * Ctrl+O: the latest (or a chosen) panel in full, scrolled in place like a pager. Blobs are
 * summarized until `f` shows them whole; Enter still prints everything into the transcript.
 */
export function Inspector({
  state,
  columns,
  bodyLines,
}: {
  state: TranscriptState;
  columns: number;
  bodyLines: number;
}): ReactNode {
  const theme = useTheme();
  const entry = inspected(state);
  if (!entry) return null;
  const { width, height } = inspectorSize(columns, bodyLines);
  const view = inspectorViewport(state, width, height);
  const position = `${(state.inspector ?? 0) + 1}/${state.expandables.length}`;
  const first = view.total === 0 ? 0 : view.offset + 1;
  const last = view.offset + view.rows.length;
  const footer: Part[] = [
    {
      text: `lines ${first}–${last} of ${view.total}`,
      short: `${first}–${last}/${view.total}`,
      priority: 5,
      tag: undefined,
    },
    ...(view.maxOffset > 0
      ? [{ text: "PgUp/PgDn j/k g/G scroll", short: "j/k scroll", priority: 4, tag: undefined }]
      : []),
    ...(view.summarized > 0 || state.inspectorWhole
      ? [
          {
            text: state.inspectorWhole
              ? "f summarize blobs"
              : `f show ${view.summarized === 1 ? "the blob" : `${view.summarized} blobs`} whole`,
            short: "f blobs",
            priority: 3,
            tag: undefined,
          },
        ]
      : []),
  ];
  return (
    <Box flexDirection="column" borderStyle="single" paddingX={1}>
      <Text bold>Inspecting {position}</Text>
      {entry.call ? <ToolPanel call={entry.call} expanded={false} headerOnly selected width={width} /> : null}
      {entry.knowledge ? (
        <Text color={theme.color("accent")} bold>
          ▶ Knowledge ({entry.knowledge.hits.length})
        </Text>
      ) : null}
      <Box flexDirection="column">
        {view.rows.map((row, index) => (
          <Text key={view.offset + index} color={row.role ? theme.color(row.role) : undefined}>
            {row.continued ? <Text color={theme.color("muted")}>{CONTINUED}</Text> : null}
            {row.text === "" ? " " : row.text}
          </Text>
        ))}
      </Box>
      <Text color={theme.color("muted")}>
        {fitParts(footer, width)
          .map((part) => part.text)
          .join(" · ")}
      </Text>
    </Box>
  );
}
