import { describe, expect, it } from "vitest";
import { promptWindow } from "../../src/ui/prompt/prompt-window.js";

describe("promptWindow", () => {
  it.each<[string, number[], number, number, ReturnType<typeof promptWindow>]>([
    ["a draft that fits is shown whole", [1, 1, 1], 2, 5, { first: 0, last: 2, above: 0, below: 0 }],
    [
      "a tall draft shows the cursor's line in the middle",
      [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
      5,
      5,
      { first: 4, last: 6, above: 4, below: 3 },
    ],
    [
      "at the top, the room goes below",
      [1, 1, 1, 1, 1, 1, 1, 1],
      0,
      5,
      { first: 0, last: 2, above: 0, below: 5 },
    ],
    [
      "at the bottom, the room goes above",
      [1, 1, 1, 1, 1, 1, 1, 1],
      7,
      5,
      { first: 5, last: 7, above: 5, below: 0 },
    ],
    ["wrapped lines count their rows", [1, 3, 1, 3, 1], 2, 6, { first: 2, last: 3, above: 2, below: 1 }],
    ["the cursor's line is shown however tall", [1, 9, 1], 1, 4, { first: 1, last: 1, above: 1, below: 1 }],
  ])("%s", (_name, rows, cursor, maxRows, expected) => {
    expect(promptWindow(rows, cursor, maxRows)).toEqual(expected);
  });
});
