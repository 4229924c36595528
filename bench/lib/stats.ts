/** Repeated measurements of one figure, summarised the same way everywhere in the suite. */
export interface Summary {
  n: number;
  min: number;
  median: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error("no samples to summarise");
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    min: sorted[0] ?? 0,
    median: percentile(sorted, 50),
    max: sorted.at(-1) ?? 0,
  };
}

/**
 * Nearest-rank percentile of sorted values (p50 of an even count is the lower middle): a value
 * that was really measured, never an interpolation between two.
 */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? 0;
}

export function sortedCopy(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}
