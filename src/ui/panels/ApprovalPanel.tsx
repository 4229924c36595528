import { Box } from "ink";
import { Text } from "../parts/SafeText.js";
import { useMemo, type ReactNode } from "react";
import { displayWidth, truncateMiddle } from "../../core/text/index.js";
import { APPROVAL_OPTIONS, type ApprovalOption } from "../keys/approval-choices.js";
import { badgeWidth, fitCallHeader } from "../parts/fit-call-header.js";
import { fitParts, type Part } from "../parts/fit-parts.js";
import { CONTINUED } from "../transcript/inspector-view.js";
import { prettyArguments } from "../parts/format.js";
import { wholePanel, type ApprovalFit } from "./approval-fit.js";
import { approvalRows, clippedArgsLine, type ApprovalRows, type PanelRow } from "./approval-rows.js";
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
  /** Most argument rows to show when no `layout` fits the panel to the window. */
  maxArgLines: number;
  /**
   * The panel's rows at `width` and what of them fits the window (useApprovalFit); clipped
   * arguments are printed in full above the panel. Without it, all but the arguments past
   * `maxArgLines` rows show.
   */
  layout?: { rows: ApprovalRows; fit: ApprovalFit } | undefined;
}

/** Asks about one call, showing everything that would run and a numbered list of answers. */
export function ApprovalPanel({
  call,
  width,
  position,
  focus,
  reason,
  draft,
  maxArgLines,
  layout,
}: ApprovalPanelProps): ReactNode {
  const theme = useTheme();
  // Drawn again on every key while the panel is up; the arguments only change with the call.
  const own = useMemo(
    () =>
      layout ? undefined : approvalRows(call, position, width, prettyArguments(call.args, call.rawArguments)),
    [layout, call, position, width],
  );
  const rows = layout?.rows ?? own;
  if (!rows) return null;
  const fit = layout?.fit ?? wholePanel(rows, maxArgLines);
  const { inner, heading } = rows;
  const name = fitCallHeader(call.label, call.number, "", heading.nameRoom);
  const shownArgs = rows.args.slice(0, fit.argRows);
  const choices = APPROVAL_OPTIONS.map((option, index) => ({ option, index })).filter(
    ({ index }) => fit.otherChoices || index === focus,
  );
  return (
    <Box
      flexDirection="column"
      {...(fit.border ? { borderStyle: "round" as const, borderColor: theme.color("warning") } : {})}
      paddingX={fit.border ? 1 : 2}
    >
      <Box flexDirection="row" height={1} overflow="hidden">
        <Box flexShrink={0} marginRight={heading.badgeOnTitle ? 1 : 0}>
          <Text bold color={theme.color("warning")} wrap="truncate-end">
            {heading.title}
          </Text>
        </Box>
        {heading.badgeOnTitle ? <TierBadge tier={call.tier} /> : null}
        {heading.nameOnTitle ? (
          <Box flexShrink={1} marginLeft={1}>
            <Text bold wrap="truncate-end">
              {name.label}
              {name.rest}
            </Text>
          </Box>
        ) : null}
      </Box>
      {heading.nameOnTitle ? null : (
        <Box flexDirection="row" height={1} overflow="hidden">
          {heading.badgeOnTitle ? null : (
            <Box flexShrink={0} marginRight={1}>
              <TierBadge tier={call.tier} />
            </Box>
          )}
          <Text bold wrap="truncate-end">
            {name.label}
            {name.rest}
          </Text>
        </Box>
      )}
      {fit.tierReason ? <Rows rows={rows.tierReason} color={theme.color("muted")} /> : null}
      {fit.warnings ? <Rows rows={rows.warnings} color={theme.color("warning")} /> : null}
      <Rows rows={shownArgs} color={undefined} />
      {fit.clipLine ? (
        <Text color={theme.color("warning")} wrap="truncate-end">
          {clippedArgsLine(shownArgs.length, rows.args.length, inner)}
        </Text>
      ) : null}
      {reason === undefined ? (
        <Box flexDirection="column" marginTop={fit.spacer ? 1 : 0}>
          {choices.map(({ option, index }) => (
            <Text key={option.choice} bold={index === focus} inverse={index === focus} wrap="truncate-end">
              {index === focus ? "›" : " "} {index + 1}. {optionText(option, call.label, inner - 9)}
            </Text>
          ))}
          <Text color={theme.color("muted")} wrap="truncate-end">
            {fitParts(panelHints(draft), inner)
              .map((part) => part.text)
              .join(" · ")}
          </Text>
          {fit.guardLine ? (
            <Text color={theme.color("muted")} wrap="truncate-end">
              {inner >= 84
                ? "Keys typed as this appears, or while you type, go to the prompt and decide nothing."
                : "Keys typed as this appears decide nothing."}
            </Text>
          ) : null}
        </Box>
      ) : (
        <ReasonField reason={reason} />
      )}
    </Box>
  );
}

/** Rows already wrapped to the panel: drawn as they are, so each takes exactly one row. */
function Rows({ rows, color }: { rows: readonly PanelRow[]; color: string | undefined }): ReactNode {
  const theme = useTheme();
  if (rows.length === 0) return null;
  return (
    <Box flexDirection="column">
      {rows.map((row, index) => (
        <Text key={index} color={color} wrap="truncate-end">
          {row.continued ? <Text color={theme.color("muted")}>{CONTINUED}</Text> : null}
          {row.text === "" ? " " : row.text}
        </Text>
      ))}
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
  // Narrower still: the scope is what tells the two apart (one is saved for good), so the name
  // goes first, then words around the scope, never the scope itself.
  const shorter = SCOPE_WORDS[option.choice].map((words) => `${words} (${option.shortcut})`);
  return shorter.find((text) => displayWidth(text) <= room) ?? shorter.at(-1) ?? "";
}

/** The two "always" options at narrower widths, widest first: each keeps its scope to the last. */
const SCOPE_WORDS = {
  always: ["Always allow this session", "Allow this session", "Session"],
  project: ["Always allow in this project", "Allow in this project", "Allow in project", "Project"],
} as const;

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
