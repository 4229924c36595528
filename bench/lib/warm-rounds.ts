/** What tool-call-warm.ts measures and prints, for tool-call-bench.ts to make figures of. */

export const CALLERS = 8;
export const BIG_SIZES = [1_000_000, 5_000_000];

export interface Latencies {
  p50: number;
  p99: number;
  perSecond: number;
  cpuMicros: number;
}

export interface Round {
  sequential: Latencies;
  concurrent: Latencies;
}

export type WarmPath = "sdk" | "mcpterm" | "untraced" | "manager";

export interface WarmMeasurements {
  rounds: Record<WarmPath, Round[]>;
  /** Per path, per size in BIG_SIZES, each call's milliseconds. */
  big: Record<"sdk" | "mcpterm", number[][]>;
}
