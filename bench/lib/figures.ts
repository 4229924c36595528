import { summarize, type Summary } from "./stats.js";

/** What a figure must do to meet the target. */
export type Target =
  /** mcpterm's median at most `value` times the floor's median. */
  | { kind: "ratio-at-most"; value: number }
  /** mcpterm's median at most `value` (in the figure's unit). */
  | { kind: "at-most"; value: number }
  /** mcpterm's median at least `value` (in the figure's unit). */
  | { kind: "at-least"; value: number }
  /** Reported for context; the issue sets no number. */
  | { kind: "none" };

/** One row of the table: a figure beside its floor from the same run. */
export interface Figure {
  /** e.g. "first prompt frame (tmux)". */
  name: string;
  unit: string;
  mcpterm: Summary;
  floor?: { label: string; summary: Summary };
  target: Target;
  /** How it was measured, in a line, when the name alone would not say. */
  note?: string;
  /** Every repeat as measured, so a later reader can recompute anything. */
  samples: { mcpterm: number[]; floor?: number[] };
}

/** A figure from raw samples: mcpterm's, and the floor's from the same run. */
export function figureOf(options: {
  name: string;
  unit: string;
  samples: readonly number[];
  floor?: { label: string; samples: readonly number[] };
  target: Target;
  note?: string;
}): Figure {
  const { floor } = options;
  return {
    name: options.name,
    unit: options.unit,
    mcpterm: summarize(options.samples),
    ...(floor ? { floor: { label: floor.label, summary: summarize(floor.samples) } } : {}),
    target: options.target,
    ...(options.note === undefined ? {} : { note: options.note }),
    samples: { mcpterm: [...options.samples], ...(floor ? { floor: [...floor.samples] } : {}) },
  };
}

/** Median against median: how many floors mcpterm costs. */
export function ratioOf(figure: Figure): number | undefined {
  if (!figure.floor || figure.floor.summary.median === 0) return undefined;
  return figure.mcpterm.median / figure.floor.summary.median;
}

/** Undefined when the figure has no target. */
export function targetMet(figure: Figure): boolean | undefined {
  const { target } = figure;
  switch (target.kind) {
    case "ratio-at-most": {
      const ratio = ratioOf(figure);
      return ratio === undefined ? undefined : ratio <= target.value;
    }
    case "at-most":
      return figure.mcpterm.median <= target.value;
    case "at-least":
      return figure.mcpterm.median >= target.value;
    case "none":
      return undefined;
  }
}

export function describeTarget(figure: Figure): string {
  const { target } = figure;
  switch (target.kind) {
    case "ratio-at-most":
      return `<= ${target.value}x`;
    case "at-most":
      return `<= ${target.value.toLocaleString("en-US")} ${figure.unit}`;
    case "at-least":
      return `>= ${target.value.toLocaleString("en-US")} ${figure.unit}`;
    case "none":
      return "-";
  }
}
