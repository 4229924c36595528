import { displayWidth, wrapWords } from "../../core/text/index.js";
import { badgeWidth } from "../parts/fit-call-header.js";
import { CONTINUED } from "../transcript/inspector-view.js";
import type { ToolCallView } from "../transcript/transcript-types.js";

/**
 * The approval panel's text cut into the screen rows it takes at its inner width. The panel
 * draws these rows as they are (each truncated, never wrapped again by Ink), so the rows
 * counted to fit the window are exactly the rows drawn.
 */

/** One row of wrapped text; `continued` rows go on the line above and are drawn after CONTINUED. */
export interface PanelRow {
  text: string;
  continued: boolean;
}

/** The panel's border and padding on each side. */
export const PANEL_FRAME = 4;
export const APPROVAL_TITLE = "Allow this call?";
/** The title where the whole one leaves the tier's badge no room beside it. */
const SHORT_TITLE = "Allow?";

export interface ApprovalHeading {
  title: string;
  /** The tier's badge fits beside the title; else it starts the name's line, so the title is never cut. */
  badgeOnTitle: boolean;
  /** The name fits whole on the title line; else it gets a line of its own. */
  nameOnTitle: boolean;
  /** Columns the name may take where it is drawn. */
  nameRoom: number;
  rows: number;
}

/** Pure: the panel's title ("(1 of 2)" when more calls wait), and where the badge and the call's name go. */
export function approvalHeading(
  call: Pick<ToolCallView, "label" | "number" | "tier">,
  position: { index: number; total: number } | undefined,
  inner: number,
): ApprovalHeading {
  const badge = badgeWidth(call.tier);
  const counted = position && position.total > 1 ? position : undefined;
  // Shorter titles before the badge leaves the title row: beside the badge on the next row, the
  // name would have what the badge leaves of it (at 20 columns, `… #1`: nothing of the tool).
  const titles = counted
    ? [
        `${APPROVAL_TITLE} (${counted.index} of ${counted.total})`,
        `${APPROVAL_TITLE} ${counted.index}/${counted.total}`,
        `${SHORT_TITLE} ${counted.index}/${counted.total}`,
        `${counted.index}/${counted.total}`,
      ]
    : [APPROVAL_TITLE, SHORT_TITLE, ""];
  const fitting = titles.find((candidate) => displayWidth(candidate) + 1 + badge <= inner);
  const title = fitting ?? titles[1] ?? APPROVAL_TITLE;
  const badgeOnTitle = fitting !== undefined;
  const room = inner - displayWidth(title) - 2 - badge;
  const nameOnTitle = badgeOnTitle && displayWidth(`${call.label} #${call.number}`) <= room;
  const nameRoom = nameOnTitle ? room : badgeOnTitle ? inner : inner - badge - 1;
  return { title, badgeOnTitle, nameOnTitle, nameRoom, rows: nameOnTitle ? 1 : 2 };
}

/**
 * Pure: text wrapped by words to `width`, line by line, rows after a line's first marked as
 * continued (and kept CONTINUED narrower), as the inspector shows long lines.
 */
export function wrappedRows(text: string, width: number): PanelRow[] {
  const rows: PanelRow[] = [];
  // A final line break ends the last line; it does not start one more.
  const lines = text.replace(/\t/g, "  ").replace(/\n$/, "").split("\n");
  for (const line of lines) {
    const [first = "", ...rest] = wrapWords(line, width, width - displayWidth(CONTINUED));
    rows.push({ text: first, continued: false });
    for (const row of rest) rows.push({ text: row, continued: true });
  }
  return rows;
}

/** The lines under the heading that explain the call: its tier's reason, then the warnings. */
export function approvalNotes(call: Pick<ToolCallView, "tier" | "tierReason" | "askReason" | "toolNotes">): {
  tierReason: string | undefined;
  warnings: string[];
} {
  return {
    tierReason: call.tierReason ? `${call.tier ?? "unknown"}: ${call.tierReason}` : undefined,
    warnings: [
      ...(call.askReason ? [`Asked because ${call.askReason}.`] : []),
      ...call.toolNotes.map((note) => `⚠ This tool: ${note}.`),
    ],
  };
}

/** Everything the panel draws above its choices, in rows of its inner width. */
export interface ApprovalRows {
  inner: number;
  heading: ApprovalHeading;
  tierReason: PanelRow[];
  warnings: PanelRow[];
  args: PanelRow[];
}

/** Pure: the panel's rows for `call` at `width` columns (its border included). */
export function approvalRows(
  call: ToolCallView,
  position: { index: number; total: number } | undefined,
  width: number,
  prettyArgs: string,
): ApprovalRows {
  const inner = Math.max(1, width - PANEL_FRAME);
  const notes = approvalNotes(call);
  return {
    inner,
    heading: approvalHeading(call, position, inner),
    tierReason: notes.tierReason === undefined ? [] : wrappedRows(notes.tierReason, inner),
    warnings: notes.warnings.flatMap((warning) => wrappedRows(warning, inner)),
    args: wrappedRows(prettyArgs, inner),
  };
}

/**
 * Pure: the line under clipped arguments, saying how many rows are not shown and where all of
 * them are (printed in full above the panel, into the scrollback), the longest form that fits.
 */
export function clippedArgsLine(shown: number, total: number, inner: number): string {
  const hidden = total - shown;
  const forms =
    shown > 0
      ? [
          `… ${hidden} more rows: the full arguments (${total} rows) are printed above this panel (scroll up)`,
          `… ${hidden} more rows: all ${total} are printed above (scroll up)`,
          `… ${hidden} more rows, printed above`,
          `… +${hidden} rows above`,
        ]
      : [
          `The arguments (${total} rows) are printed in full above this panel (scroll up)`,
          `Arguments (${total} rows) printed above (scroll up)`,
          `Arguments: ${total} rows, above`,
        ];
  return forms.find((form) => displayWidth(form) <= inner) ?? forms.at(-1) ?? "";
}
