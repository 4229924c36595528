import { describe, expect, it } from "vitest";
import { selectDiverse } from "../../src/core/kb/ranking.js";

const c = (path: string, score: number) => ({ path, score });

describe("selectDiverse", () => {
  it("keeps at most maxPerFile from one file while others have candidates", () => {
    const candidates = [c("a", 10), c("a", 9), c("a", 8), c("a", 7), c("b", 5)];
    expect(selectDiverse(candidates, { k: 3, minRelativeScore: 0, maxPerFile: 2 })).toEqual([
      c("a", 10),
      c("a", 9),
      c("b", 5),
    ]);
  });

  it("fills from the same file when no other file is left", () => {
    const candidates = [c("a", 10), c("a", 9), c("a", 8)];
    expect(selectDiverse(candidates, { k: 3, minRelativeScore: 0, maxPerFile: 1 })).toHaveLength(3);
  });

  it("drops candidates below the relative threshold", () => {
    const candidates = [c("a", 10), c("b", 4), c("c", 1)];
    expect(selectDiverse(candidates, { k: 4, minRelativeScore: 0.3, maxPerFile: 2 })).toEqual([
      c("a", 10),
      c("b", 4),
    ]);
  });

  it("returns nothing for no candidates or k = 0", () => {
    expect(selectDiverse([], { k: 4, minRelativeScore: 0.3, maxPerFile: 2 })).toEqual([]);
    expect(selectDiverse([c("a", 1)], { k: 0, minRelativeScore: 0.3, maxPerFile: 2 })).toEqual([]);
  });
});
