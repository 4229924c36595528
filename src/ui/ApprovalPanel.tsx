import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { APPROVAL_OPTIONS } from "./approval-choices.js";
import { headLines, prettyArguments } from "./format.js";
import type { EditorState } from "./input-editor.js";
import { useTheme } from "./theme.js";
import { TierBadge } from "./TierBadge.js";
import type { ToolCallView } from "./transcript-types.js";

export interface ApprovalPanelProps {
  call: ToolCallView;
  /** Its place among the calls of its step still to decide, when there is more than one. */
  position: { index: number; total: number } | undefined;
  /** Index into APPROVAL_OPTIONS of the focused choice. */
  focus: number;
  /** The person chose to deny with a reason and is writing it for the model. */
  reason: EditorState | undefined;
  /** The prompt holds a draft, so shortcut letters and digits type into it rather than decide. */
  draft: boolean;
  /** Most argument lines that fit; longer arguments were printed in full above the panel. */
  maxArgLines: number;
}

/** Asks about one call, showing everything that would run and a numbered list of answers. */
export function ApprovalPanel({
  call,
  position,
  focus,
  reason,
  draft,
  maxArgLines,
}: ApprovalPanelProps): ReactNode {
  const theme = useTheme();
  const args = headLines(prettyArguments(call.args, call.rawArguments), maxArgLines);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color("warning")} paddingX={1}>
      <Box flexDirection="row">
        <Text bold color={theme.color("warning")}>
          Allow this call?
          {position && position.total > 1 ? ` (${position.index} of ${position.total})` : ""}{" "}
        </Text>
        <TierBadge tier={call.tier} />
        <Box flexShrink={1} marginLeft={1}>
          <Text bold wrap="truncate-end">
            {call.label} #{call.number}
          </Text>
        </Box>
      </Box>
      {call.tierReason ? (
        <Text color={theme.color("muted")}>
          {call.tier ?? "unknown"}: {call.tierReason}
        </Text>
      ) : null}
      {call.askReason ? <Text color={theme.color("warning")}>Asked because {call.askReason}.</Text> : null}
      {call.toolNotes.map((note) => (
        <Text key={note} color={theme.color("warning")}>
          ⚠ This tool: {note}.
        </Text>
      ))}
      <Text>{args.lines.join("\n")}</Text>
      {args.hidden > 0 ? (
        <Text color={theme.color("warning")}>
          … {args.hidden} more lines: the full arguments ({args.total} lines) are printed above this panel
        </Text>
      ) : null}
      {reason === undefined ? (
        <Box flexDirection="column" marginTop={1}>
          {APPROVAL_OPTIONS.map((option, index) => (
            <Text key={option.choice} bold={index === focus} inverse={index === focus}>
              {index === focus ? "›" : " "} {index + 1}. {option.label(call.label)} ({option.shortcut})
            </Text>
          ))}
          <Text color={theme.color("muted")}>
            {draft
              ? "Letters and digits type into your draft: ↑/↓ choose · Enter confirm · Esc deny"
              : "↑/↓ or 1–4 choose · Enter confirm · y a n d answer at once · Esc deny"}
          </Text>
          <Text color={theme.color("muted")}>
            Keys typed as this appears, or while you type, go to the prompt and decide nothing.
          </Text>
        </Box>
      ) : (
        <Box flexDirection="column">
          <Text>
            Why (the model reads this): {reason.text.slice(0, reason.cursor)}
            <Text inverse>{reason.text.charAt(reason.cursor) || " "}</Text>
            {reason.text.slice(reason.cursor + 1)}
          </Text>
          <Text color={theme.color("muted")}>Enter deny with this reason · Esc deny without one</Text>
        </Box>
      )}
    </Box>
  );
}

/** Calls of the same step still to decide, listed under the panel in the order they will be asked. */
export function WaitingCalls({ calls }: { calls: readonly ToolCallView[] }): ReactNode {
  const theme = useTheme();
  if (calls.length === 0) return null;
  return (
    <Box flexDirection="column" paddingLeft={1}>
      {calls.map((call) => (
        <Box key={call.callId} flexDirection="row">
          <Text color={theme.color("muted")}>then </Text>
          <TierBadge tier={call.tier} />
          <Box flexShrink={1} marginLeft={1}>
            <Text wrap="truncate-end">
              {call.label} #{call.number}
            </Text>
          </Box>
        </Box>
      ))}
    </Box>
  );
}
