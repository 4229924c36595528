import { useMemo } from "react";
import { prettyArguments } from "../parts/format.js";
import type { ToolCallView } from "../transcript/transcript-types.js";
import { fitApproval, type ApprovalFit } from "./approval-fit.js";
import { approvalRows, type ApprovalRows } from "./approval-rows.js";

/**
 * Rows the live area leaves free. One: a frame as tall as the window is redrawn by Ink erasing
 * the whole screen, which tmux (scroll-on-clear) and some terminals keep in the scrollback. And
 * one more: the live turn above the panel is measured after a render, so the frame a panel first
 * appears in may count a row of it short (with one row, 4 runs in 10 left a copy of the panel).
 */
export const FULL_SCREEN_MARGIN = 2;

export interface ApprovalRoom {
  /** The window's rows, from stdout, so a resize fits the panel again. */
  windowRows: number;
  /** Rows the live turn takes above the panel. */
  above: number;
  /** Rows of the lists under the panel: the calls and questions asked after it. */
  waiting: number;
  queued: number;
  prompt: number;
  promptEmpty: boolean;
  status: number;
}

/** The approval panel's rows at `columns`, and what of them (and of what is under them) fits the window. */
export function useApprovalFit(
  call: ToolCallView | undefined,
  position: { index: number; total: number } | undefined,
  columns: number,
  room: ApprovalRoom,
): { rows: ApprovalRows; fit: ApprovalFit } | undefined {
  // Wrapping long arguments is the costly part, and the panel is drawn again on every key and
  // token; `position` is a new object each time, so its numbers are what count.
  const index = position?.index;
  const total = position?.total;
  const rows = useMemo(
    () =>
      call
        ? approvalRows(
            call,
            index === undefined || total === undefined ? undefined : { index, total },
            columns,
            prettyArguments(call.args, call.rawArguments),
          )
        : undefined,
    [call, index, total, columns],
  );
  if (!rows) return undefined;
  const fit = fitApproval({
    rows: room.windowRows - room.above - FULL_SCREEN_MARGIN,
    heading: rows.heading.rows,
    tierReason: rows.tierReason.length,
    warnings: rows.warnings.length,
    args: rows.args.length,
    waiting: room.waiting,
    queued: room.queued,
    prompt: room.prompt,
    promptEmpty: room.promptEmpty,
    status: room.status,
  });
  return { rows, fit };
}
