import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { headLines, prettyArguments } from "./format.js";
import { useTheme } from "./theme.js";
import { TierBadge } from "./TierBadge.js";
import type { ToolCallView } from "./transcript-types.js";

export interface ApprovalPanelProps {
  call: ToolCallView;
  /** The person pressed `d` and is typing a reason for the model. */
  reason: string | undefined;
  /** Most argument lines that fit; longer arguments were printed in full above the panel. */
  maxArgLines: number;
}

/** Asks about one call, showing everything that would run and the keys that decide. */
export function ApprovalPanel({ call, reason, maxArgLines }: ApprovalPanelProps): ReactNode {
  const theme = useTheme();
  const args = headLines(prettyArguments(call.args, call.rawArguments), maxArgLines);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color("warning")} paddingX={1}>
      <Box flexDirection="row">
        <Text bold color={theme.color("warning")}>
          Allow this call?{" "}
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
      <Text>{args.lines.join("\n")}</Text>
      {args.hidden > 0 ? (
        <Text color={theme.color("warning")}>
          … {args.hidden} more lines: the full arguments ({args.total} lines) are printed above this panel
        </Text>
      ) : null}
      {reason === undefined ? (
        <Text>
          <Key name="y" /> approve once · <Key name="a" /> always allow {call.label} this session ·{" "}
          <Key name="n" /> deny · <Key name="d" /> deny and tell the model why · <Key name="Esc" /> deny
        </Text>
      ) : (
        <Box flexDirection="column">
          <Text>
            Why (the model reads this): {reason}
            <Text inverse> </Text>
          </Text>
          <Text color={theme.color("muted")}>Enter deny with this reason · Esc deny without one</Text>
        </Box>
      )}
    </Box>
  );
}

function Key({ name }: { name: string }): ReactNode {
  const theme = useTheme();
  return (
    <Text bold color={theme.color("accent")}>
      {name}
    </Text>
  );
}
