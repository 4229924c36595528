import { displayWidth, truncateEnd, truncateMiddle } from "../../core/text/index.js";
import type { Tier } from "../../core/policy/tiers.js";

/** Narrowest an argument summary is still worth showing in a header. */
const MIN_ARGS = 8;

/** Columns a tier badge takes: ` dangerous ` in colour, `[dangerous]` without. */
export function badgeWidth(tier: Tier | undefined): number {
  return displayWidth(tier ?? "unknown") + 2;
}

/**
 * Pure: a call's header text fitted into `room` columns (what is left after the badge). The name
 * loses its middle first, so `server/…/tool` keeps both ends; the argument summary gets what is
 * left and is dropped when too little is.
 */
export function fitCallHeader(
  label: string,
  number: number,
  args: string,
  room: number,
): { label: string; rest: string } {
  const numberText = `#${number}`;
  const labelRoom = Math.max(1, room - displayWidth(numberText) - 1);
  const fitted = truncateMiddle(label, labelRoom);
  const argsRoom = room - displayWidth(fitted) - displayWidth(numberText) - 2;
  const summary = args && argsRoom >= MIN_ARGS ? ` ${truncateEnd(args, argsRoom)}` : "";
  return { label: fitted, rest: ` ${numberText}${summary}` };
}
