import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { sanitizeForTerminal } from "../core/policy/sanitize-terminal.js";
import { firstLine, formatDuration, summarizeArguments } from "../core/text/index.js";
import { Elapsed } from "./Elapsed.js";
import { badgeWidth, fitCallHeader } from "./fit-call-header.js";
import { headLines, prettyArguments } from "./format.js";
import { useTheme } from "./theme.js";
import { TierBadge } from "./TierBadge.js";
import type { ToolCallView } from "./transcript-types.js";

export interface ToolPanelProps {
  call: ToolCallView;
  /** Columns the panel may use. */
  width: number;
  /** Show the full arguments and the result. */
  expanded: boolean;
  /** Most result lines to show when expanded; the rest are counted. */
  maxResultLines?: number;
  selected?: boolean;
  /** Only the header and state, for a view that shows the rest itself (the inspector). */
  headerOnly?: boolean;
}

/** One tool call: a header that always says tier, name, arguments and state; details when expanded. */
export function ToolPanel({
  call,
  width,
  expanded,
  maxResultLines = 20,
  selected = false,
  headerOnly = false,
}: ToolPanelProps): ReactNode {
  const theme = useTheme();
  const args = sanitizeForTerminal(summarizeArguments(call.args, call.rawArguments, 60));
  const header = fitCallHeader(call.label, call.number, args, width - 3 - badgeWidth(call.tier));
  return (
    <Box flexDirection="column">
      <Box flexDirection="row">
        <Text color={theme.color("accent")}>{selected ? "▶ " : expanded ? "▾ " : "▸ "}</Text>
        <TierBadge tier={call.tier} />
        <Box flexShrink={1} marginLeft={1}>
          <Text wrap="truncate-end">
            <Text bold>{header.label}</Text>
            <Text color={theme.color("muted")}>{header.rest}</Text>
          </Text>
        </Box>
      </Box>
      <Box paddingLeft={2}>
        <CallState call={call} />
      </Box>
      {headerOnly ? null : expanded ? (
        <Details call={call} maxResultLines={maxResultLines} />
      ) : (
        <Preview call={call} />
      )}
    </Box>
  );
}

function CallState({ call }: { call: ToolCallView }): ReactNode {
  const theme = useTheme();
  switch (call.state) {
    case "proposed":
      return <Text color={theme.color("muted")}>queued</Text>;
    case "awaiting_approval":
      return (
        <Text color={theme.color("warning")} bold>
          awaiting approval
        </Text>
      );
    case "approved":
      return <Text color={theme.color("muted")}>approved by {call.decision?.by ?? "policy"}, starting…</Text>;
    case "running": {
      const progress = call.progress;
      return (
        <Text color={theme.color("accent")}>
          running <Elapsed />
          {progress
            ? ` · ${progress.progress}${progress.total === undefined ? "" : `/${progress.total}`}${progress.message ? ` ${progress.message}` : ""}`
            : ""}
        </Text>
      );
    }
    case "done":
      return (
        <Text color={theme.color("success")}>
          ✓ done in {formatDuration(call.result?.durationMs ?? 0)}
          {call.decision && call.decision.by !== "config" && call.decision.by !== "default"
            ? ` · approved by ${call.decision.by}`
            : ""}
        </Text>
      );
    case "failed":
      return (
        <Text color={theme.color("error")} wrap="truncate-end">
          ✗ failed ({call.result?.failure ?? "error"}): {firstLine(call.result?.display ?? "")}
        </Text>
      );
    case "denied":
      return (
        <Text color={theme.color("error")} wrap="truncate-end">
          ⊘ denied by {call.decision?.by ?? "policy"}
          {call.decision?.reason ? `: ${call.decision.reason}` : ""}
        </Text>
      );
    case "cancelled":
      return <Text color={theme.color("warning")}>cancelled</Text>;
  }
}

function Preview({ call }: { call: ToolCallView }): ReactNode {
  const theme = useTheme();
  if (call.state !== "done" || !call.result) return null;
  const { lines, total } = headLines(call.result.display, 1);
  return (
    <Box paddingLeft={2}>
      <Text color={theme.color("muted")} wrap="truncate-end">
        ⎿ {lines[0] ?? ""}
        {total > 1 ? ` (+${total - 1} lines)` : ""}
      </Text>
    </Box>
  );
}

function Details({ call, maxResultLines }: { call: ToolCallView; maxResultLines: number }): ReactNode {
  const theme = useTheme();
  const result = call.result ? headLines(call.result.display, maxResultLines) : undefined;
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {call.tierReason ? <Text color={theme.color("muted")}>tier: {call.tierReason}</Text> : null}
      {call.problem ? <Text color={theme.color("error")}>problem: {call.problem}</Text> : null}
      <Text color={theme.color("muted")}>arguments:</Text>
      <Text>{prettyArguments(call.args, call.rawArguments)}</Text>
      {result ? (
        <>
          <Text color={theme.color("muted")}>
            result ({result.total} {result.total === 1 ? "line" : "lines"}
            {call.result?.truncated ? ", cut for the model" : ""}):
          </Text>
          <Text>{result.lines.join("\n")}</Text>
          {call.result?.redactions.length ? (
            <Text color={theme.color("warning")}>secrets removed: {call.result.redactions.join(", ")}</Text>
          ) : null}
          {result.hidden > 0 ? (
            <Text color={theme.color("muted")}>
              … {result.hidden} more lines (Enter in the inspector prints all)
            </Text>
          ) : null}
        </>
      ) : null}
    </Box>
  );
}
