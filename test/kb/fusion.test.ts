import { describe, expect, it } from "vitest";
import { fuseScores, KEYWORD_WEIGHT } from "../../src/core/kb/fusion.js";

const order = (fused: Map<number, number>): number[] =>
  [...fused.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);

describe("fuseScores", () => {
  it("keeps a clear keyword winner first however the model ranks it", () => {
    const keyword = [
      { id: 1, score: 20 },
      { id: 2, score: 6 },
      { id: 3, score: 5 },
    ];
    const similar = [
      { id: 3, score: 0.62 },
      { id: 2, score: 0.6 },
      { id: 1, score: 0.3 },
    ];
    expect(order(fuseScores(keyword, similar))[0]).toBe(1);
  });

  it("lets the model decide between keyword near-ties, and ranks a passage found by meaning alone", () => {
    const keyword = [
      { id: 1, score: 10 },
      { id: 2, score: 9.9 },
      { id: 3, score: 1 },
    ];
    const similar = [
      { id: 2, score: 0.8 },
      { id: 9, score: 0.79 },
      { id: 1, score: 0.2 },
    ];
    const fused = fuseScores(keyword, similar);
    expect(order(fused)).toEqual([2, 1, 9, 3]);
    expect(fused.get(9)).toBeCloseTo((1 - KEYWORD_WEIGHT) * ((0.79 - 0.2) / 0.6));
  });

  it("gives every passage of a ranking whose scores are all equal the full weight", () => {
    expect(fuseScores([{ id: 1, score: 3 }], [])).toEqual(new Map([[1, KEYWORD_WEIGHT]]));
  });
});
