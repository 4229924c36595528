import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import { useMemo, type ReactNode } from "react";
import { displayWidth, truncateMiddle } from "../../core/text/index.js";
import { APPROVAL_OPTIONS, type ApprovalOption } from "../keys/approval-choices.js";
import { badgeWidth, fitCallHeader } from "../parts/fit-call-header.js";
import { fitParts, type Part } from "../parts/fit-parts.js";
import { headLines, prettyArguments } from "../parts/format.js";
import { graphemeAt, type EditorState } from "../keys/input-editor.js";
import { useTheme } from "../parts/theme.js";
import { TierBadge } from "../parts/TierBadge.js";
import type { ToolCallView } from "../transcript/transcript-types.js";

export interface ApprovalPanelProps {
  call: ToolCallView;
  /** Columns the panel may use, its border included. */
  width: number;
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

/** Border and padding on each side. */
const FRAME = 4;
const TITLE = "Allow this call?";

/** Asks about one call, showing everything that would run and a numbered list of answers. */
export function ApprovalPanel({
  call,
  width,
  position,
  focus,
  reason,
  draft,
  maxArgLines,
}: ApprovalPanelProps): ReactNode {
  const theme = useTheme();
  const inner = Math.max(1, width - FRAME);
  // Drawn again on every key while the panel is up; the arguments only change with the call.
  const pretty = useMemo(() => prettyArguments(call.args, call.rawArguments), [call.args, call.rawArguments]);
  const args = headLines(pretty, maxArgLines);
  const badge = badgeWidth(call.tier);
  const counted = position && position.total > 1 ? position : undefined;
  let title = counted ? `${TITLE} (${counted.index} of ${counted.total})` : TITLE;
  if (counted && displayWidth(title) + 1 + badge > inner)
    title = `${TITLE} ${counted.index}/${counted.total}`;
  // The name goes on the title line when it fits there whole, else on a line of its own.
  const room = inner - displayWidth(title) - 2 - badge;
  const fullName = `${call.label} #${call.number}`;
  const nameOnTitle = displayWidth(fullName) <= room;
  const name = fitCallHeader(call.label, call.number, "", nameOnTitle ? room : inner);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color("warning")} paddingX={1}>
      <Box flexDirection="row">
        <Box flexShrink={0} marginRight={1}>
          <Text bold color={theme.color("warning")}>
            {title}
          </Text>
        </Box>
        <TierBadge tier={call.tier} />
        {nameOnTitle ? (
          <Box flexShrink={1} marginLeft={1}>
            <Text bold wrap="truncate-end">
              {name.label}
              {name.rest}
            </Text>
          </Box>
        ) : null}
      </Box>
      {nameOnTitle ? null : (
        <Text bold wrap="truncate-end">
          {name.label}
          {name.rest}
        </Text>
      )}
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
              {index === focus ? "›" : " "} {index + 1}. {optionText(option, call.label, inner - 9)}
            </Text>
          ))}
          <Text color={theme.color("muted")}>
            {fitParts(panelHints(draft), inner)
              .map((part) => part.text)
              .join(" · ")}
          </Text>
          <Text color={theme.color("muted")}>
            {inner >= 60
              ? "Keys typed as this appears, or while you type, go to the prompt and decide nothing."
              : "Keys typed as this appears decide nothing."}
          </Text>
        </Box>
      ) : (
        <ReasonField reason={reason} />
      )}
    </Box>
  );
}

/**
 * An option's words fitted to `room` columns: "Always allow <name> this session" (or "in this
 * project") keeps its scope and drops the middle of the name, then the name.
 */
function optionText(option: ApprovalOption, label: string, room: number): string {
  const full = option.label(label);
  if (displayWidth(full) <= room) return `${full} (${option.shortcut})`;
  if (option.choice !== "always" && option.choice !== "project") return `${full} (${option.shortcut})`;
  const scope = option.choice === "always" ? "this session" : "in this project";
  const shown = (name: string): string => `Always allow ${name} ${scope} (${option.shortcut})`;
  const name = truncateMiddle(label, room - displayWidth(shown("")));
  if (displayWidth(name) >= 8) return shown(name);
  // Narrower still: the scope is what tells the two apart, so the name goes before it does.
  const short = option.choice === "always" ? "Always allow this session" : "Always allow in this project";
  const fallback = `${short} (${option.shortcut})`;
  return displayWidth(fallback) <= room ? fallback : `Always allow (${option.shortcut})`;
}

function panelHints(draft: boolean): Part[] {
  const hints: Array<[string, string?]> = draft
    ? [
        ["Enter confirm"],
        ["Esc deny"],
        ["↑/↓ choose"],
        ["letters and digits type into your draft", "typing edits the draft"],
      ]
    : [
        ["Enter confirm"],
        ["Esc deny"],
        ["↑/↓ or 1–5 choose", "↑/↓ choose"],
        ["y a p n d answer at once", "y a p n d"],
      ];
  return hints.map(([text, short], index) => ({
    text,
    ...(short === undefined ? {} : { short }),
    priority: hints.length - index,
    tag: undefined,
  }));
}

function ReasonField({ reason }: { reason: EditorState }): ReactNode {
  const theme = useTheme();
  const at = graphemeAt(reason.text, reason.cursor);
  return (
    <Box flexDirection="column">
      <Text>
        Why (the model reads this): {reason.text.slice(0, reason.cursor)}
        <Text inverse>{at || " "}</Text>
        {reason.text.slice(reason.cursor + at.length)}
      </Text>
      <Text color={theme.color("muted")}>Enter deny with this reason · Esc deny without one</Text>
    </Box>
  );
}

/** Calls of the same step still to decide, listed under the panel in the order they will be asked. */
export function WaitingCalls({ calls, width }: { calls: readonly ToolCallView[]; width: number }): ReactNode {
  const theme = useTheme();
  if (calls.length === 0) return null;
  return (
    <Box flexDirection="column" paddingLeft={1}>
      {calls.map((call) => {
        const header = fitCallHeader(call.label, call.number, "", width - 7 - badgeWidth(call.tier));
        return (
          <Box key={call.callId} flexDirection="row">
            <Text color={theme.color("muted")}>then </Text>
            <TierBadge tier={call.tier} />
            <Box flexShrink={1} marginLeft={1}>
              <Text wrap="truncate-end">
                {header.label}
                {header.rest}
              </Text>
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
