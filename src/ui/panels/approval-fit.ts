/**
 * How an approval panel and what stays under it fit the window. Ink cannot erase rows that
 * scrolled off the top, so a live area taller than the window leaves a copy of itself in the
 * scrollback at every redraw and hides its own top: the heading saying what is asked. Here
 * everything is counted in screen rows and what matters least gives way first.
 */

/** Rows each part takes when shown, already wrapped to the panel's width. */
export interface ApprovalSizes {
  /** The window's rows, less the live turn drawn above the panel. */
  rows: number;
  /** The title line, and the name's own line when it does not fit beside the title. */
  heading: number;
  /** Why the call has its tier. */
  tierReason: number;
  /** Why it is asked and what is known against the tool. */
  warnings: number;
  /** The full arguments, wrapped. */
  args: number;
  /** Under the panel: the calls and questions asked after it. */
  waiting: number;
  /** Under the panel: messages queued for after the turn. */
  queued: number;
  /** The prompt box as it is drawn now. */
  prompt: number;
  /** The prompt holds no draft, so nothing the person typed is hidden when it gives way. */
  promptEmpty: boolean;
  /** The status line. */
  status: number;
}

/** What is shown; `argRows` of the arguments' rows, from the first. */
export interface ApprovalFit {
  border: boolean;
  tierReason: boolean;
  warnings: boolean;
  argRows: number;
  /** The line saying how many rows of the arguments are not shown, and where they are. */
  clipLine: boolean;
  /** The blank row above the choices. */
  spacer: boolean;
  /** The choices the focus is not on (the focused one always shows). */
  otherChoices: boolean;
  /** The sentence saying keys typed as the panel appears decide nothing. */
  guardLine: boolean;
  waiting: boolean;
  queued: boolean;
  prompt: boolean;
  status: boolean;
}

/** Argument rows kept, while they exist, before the panel's spacing and explanations give way. */
export const MIN_ARG_ROWS = 3;
const CHOICES = 5;
const KEY_LINE = 1;
const BORDER = 2;

const EVERYTHING: ApprovalFit = {
  border: true,
  tierReason: true,
  warnings: true,
  argRows: 0,
  clipLine: false,
  spacer: true,
  otherChoices: true,
  guardLine: true,
  waiting: true,
  queued: true,
  prompt: true,
  status: true,
};

/** Pure: the rows `fit` takes with the panel's parts measured as `sizes`. */
export function fittedRows(sizes: ApprovalSizes, fit: ApprovalFit): number {
  return (
    sizes.heading +
    KEY_LINE +
    1 +
    (fit.otherChoices ? CHOICES - 1 : 0) +
    (fit.border ? BORDER : 0) +
    (fit.tierReason ? sizes.tierReason : 0) +
    (fit.warnings ? sizes.warnings : 0) +
    fit.argRows +
    (fit.clipLine ? 1 : 0) +
    (fit.spacer ? 1 : 0) +
    (fit.guardLine ? 1 : 0) +
    (fit.waiting ? sizes.waiting : 0) +
    (fit.queued ? sizes.queued : 0) +
    (fit.prompt ? sizes.prompt : 0) +
    (fit.status ? sizes.status : 0)
  );
}

/**
 * Pure: the most of the panel that fits `sizes.rows`. The heading (tier, server/tool), the
 * focused choice and the key line never give way. The arguments take what is left, down to
 * MIN_ARG_ROWS; then the guard sentence, the spacer and the tier's reason give way to them; then
 * the arguments go; then, in a window too short for all of it, the lists under the panel, the
 * status line (the panel has its own key line), the border, the warnings, an empty prompt (a
 * draft stays, so typing is never hidden), the other choices and the clip line.
 */
export function fitApproval(sizes: ApprovalSizes): ApprovalFit {
  let fit: ApprovalFit = { ...EVERYTHING, argRows: sizes.args };
  const fits = (candidate: ApprovalFit): boolean => fittedRows(sizes, candidate) <= sizes.rows;
  const withArgs = (candidate: ApprovalFit, floor: number): ApprovalFit => {
    const whole = { ...candidate, argRows: sizes.args, clipLine: false };
    if (fits(whole)) return whole;
    const room = sizes.rows - fittedRows(sizes, { ...candidate, argRows: 0, clipLine: true });
    const argRows = Math.min(sizes.args, Math.max(floor, room, 0));
    return { ...candidate, argRows, clipLine: argRows < sizes.args };
  };
  fit = withArgs(fit, MIN_ARG_ROWS);
  for (const part of ["guardLine", "spacer", "tierReason"] as const) {
    if (fits(fit)) return fit;
    fit = withArgs({ ...fit, [part]: false }, MIN_ARG_ROWS);
  }
  if (fits(fit)) return fit;
  fit = withArgs(fit, 0);
  const lastResorts = [
    "waiting",
    "status",
    "border",
    "warnings",
    "queued",
    "prompt",
    "otherChoices",
  ] as const;
  for (const part of lastResorts) {
    if (fits(fit)) return fit;
    if (part === "prompt" && !sizes.promptEmpty) continue;
    fit = { ...fit, [part]: false };
  }
  if (fits(fit)) return fit;
  return { ...fit, clipLine: false };
}

/** Pure: every part of the panel and of what is under it, the arguments cut at `maxArgRows`. */
export function wholePanel(rows: { args: readonly unknown[] }, maxArgRows: number): ApprovalFit {
  const argRows = Math.min(rows.args.length, Math.max(0, maxArgRows));
  return { ...EVERYTHING, argRows, clipLine: argRows < rows.args.length };
}
