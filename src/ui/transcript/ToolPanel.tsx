import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import type { ReactNode } from "react";
import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";
import {
  displayWidth,
  firstLine,
  formatDuration,
  oneLine,
  pluralize,
  summarizeArguments,
  truncateEnd,
} from "../../core/text/index.js";
import { Elapsed } from "../parts/Elapsed.js";
import { badgeWidth, fitCallHeader } from "../parts/fit-call-header.js";
import { headLines, prettyArguments, resultSections } from "../parts/format.js";
import { useTheme } from "../parts/theme.js";
import { TierBadge } from "../parts/TierBadge.js";
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

/** Characters of structured content a one-line preview takes (the line is cut to the panel anyway). */
const PREVIEW_WIDTH = 200;
/** Attachments a one-line preview names; the rest are counted. */
const ATTACHMENTS_SHOWN = 3;
/** Columns a preview's text keeps however many attachments follow it. */
const PREVIEW_MIN = 12;

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
  // Summarized as wide as the panel: the header fits it to what the name leaves.
  const args = sanitizeForTerminal(summarizeArguments(call.args, call.rawArguments, width));
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
      {call.result?.outputSchemaProblem && !headerOnly ? (
        <Box paddingLeft={2}>
          <Text color={theme.color("warning")} wrap={expanded ? "wrap" : "truncate-end"}>
            ⚠ {call.result.outputSchemaProblem}
          </Text>
        </Box>
      ) : null}
      {headerOnly ? null : expanded ? (
        <Details call={call} maxResultLines={maxResultLines} />
      ) : (
        <Preview call={call} width={width} />
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
      // A step's calls run once each of them is decided: one approved may wait on another's panel.
      return (
        <Text color={theme.color("muted")}>
          approved by {call.decision?.by ?? "policy"}, runs once the step's calls are decided
        </Text>
      );
    case "running": {
      const progress = call.progress;
      return (
        <Text color={theme.color("accent")}>
          running <Elapsed />
          {call.task ? ` · ${taskText(call.task)}` : ""}
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
          {call.task ? ` · ran as task ${call.task.taskId}` : ""}
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
      return (
        <Text color={theme.color("warning")}>
          cancelled
          {call.task && call.task.status !== "completed"
            ? ` · task ${call.task.taskId} cancelled (${cancelNote(call.task)})`
            : ""}
        </Text>
      );
  }
}

/**
 * What became of the task's tasks/cancel: the driver's words ("tasks/cancel sent", or why it
 * could not be sent), which it says before the cancelled call ends.
 */
function cancelNote(task: NonNullable<ToolCallView["task"]>): string {
  return task.status === "cancelled" && task.statusMessage?.startsWith("tasks/cancel")
    ? task.statusMessage
    : "tasks/cancel sent";
}

/** `task job-1 working: step 2 of 5`: the task's id and status and the server's words (sanitized). */
function taskText(task: NonNullable<ToolCallView["task"]>): string {
  return `task ${task.taskId} ${task.status.replace("_", " ")}${task.statusMessage ? `: ${firstLine(task.statusMessage)}` : ""}`;
}

/**
 * The result's first line and the attachments it holds; a result with only structured content
 * shows that, on one line.
 */
function Preview({ call, width }: { call: ToolCallView; width: number }): ReactNode {
  const theme = useTheme();
  if (call.state !== "done" || !call.result) return null;
  const { display, structured, attachments = [] } = call.result;
  const { lines, total } = headLines(display, 1);
  const preview =
    display === "" && structured !== undefined
      ? `structured: ${oneLine(structured, PREVIEW_WIDTH)}`
      : `${lines[0] ?? ""}${total > 1 ? ` (+${pluralize(total - 1, "line")})` : ""}`;
  const shownAttachments = attachments.slice(0, ATTACHMENTS_SHOWN);
  const more = attachments.length - shownAttachments.length;
  const media = [...shownAttachments, ...(more > 0 ? [`${more} more`] : [])]
    .map((part) => ` · ${part}`)
    .join("");
  // The text gives way, so the attachments stay in sight; "  ⎿ " takes four columns.
  const room = Math.max(PREVIEW_MIN, width - 4 - displayWidth(media));
  return (
    <Box paddingLeft={2}>
      <Text color={theme.color("muted")} wrap="truncate-end">
        ⎿ {media ? truncateEnd(preview, room) : preview}
        {media}
      </Text>
    </Box>
  );
}

function Details({ call, maxResultLines }: { call: ToolCallView; maxResultLines: number }): ReactNode {
  const theme = useTheme();
  const { result } = call;
  const sections = result ? resultSections(result) : [];
  const shown = sections.map((section) => ({ ...section, ...headLines(section.text, maxResultLines) }));
  const hidden = shown.reduce((sum, section) => sum + section.hidden, 0);
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {call.tierReason ? <Text color={theme.color("muted")}>tier: {call.tierReason}</Text> : null}
      {call.problem ? <Text color={theme.color("error")}>problem: {call.problem}</Text> : null}
      <Text color={theme.color("muted")}>arguments:</Text>
      <Text>{prettyArguments(call.args, call.rawArguments)}</Text>
      {shown.map((section) => (
        <Box key={section.title} flexDirection="column">
          <Text color={theme.color("muted")}>{section.title}</Text>
          <Text>{section.lines.join("\n")}</Text>
        </Box>
      ))}
      {result?.redactions.length ? (
        <Text color={theme.color("warning")}>secrets removed: {result.redactions.join(", ")}</Text>
      ) : null}
      {hidden > 0 ? (
        <Text color={theme.color("muted")}>… {hidden} more lines (Enter in the inspector prints all)</Text>
      ) : null}
    </Box>
  );
}
