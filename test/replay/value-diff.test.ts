import { describe, expect, it } from "vitest";
import { lineDiff } from "../../src/core/replay/line-diff.js";
import { diffValues } from "../../src/core/replay/value-diff.js";

describe("diffValues", () => {
  it.each([
    [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, []],
    [{ a: 1 }, { a: 2 }, [{ path: "$.a", recorded: 1, replayed: 2 }]],
    [{ a: [1] }, { a: [1, 2] }, [{ path: "$.a[1]", recorded: undefined, replayed: 2 }]],
    [{ "odd key": "x" }, {}, [{ path: "$['odd key']", recorded: "x", replayed: undefined }]],
    [{ a: { b: 1 } }, { a: "b" }, [{ path: "$.a", recorded: { b: 1 }, replayed: "b" }]],
    [
      { z: 1, a: 1 },
      { z: 2, a: 2 },
      [
        { path: "$.a", recorded: 1, replayed: 2 },
        { path: "$.z", recorded: 1, replayed: 2 },
      ],
    ],
  ])("%j against %j", (recorded, replayed, expected) => {
    expect(diffValues(recorded, replayed)).toEqual(expected);
  });
});

describe("lineDiff", () => {
  it.each([
    [["a", "b", "c"], ["a", "b", "c"], []],
    [
      ["a", "b", "c"],
      ["a", "x", "c"],
      [
        { op: "-", line: 2, text: "b" },
        { op: "+", line: 2, text: "x" },
      ],
    ],
    [["a", "c"], ["a", "b", "c"], [{ op: "+", line: 2, text: "b" }]],
    [
      ["a", "b", "c", "d"],
      ["b", "d"],
      [
        { op: "-", line: 1, text: "a" },
        { op: "-", line: 3, text: "c" },
      ],
    ],
  ])("%j to %j", (before, after, expected) => {
    expect(lineDiff(before, after)).toEqual(expected);
  });

  it("shows a long middle as removed and added without matching it line by line", () => {
    const before = Array.from({ length: 1000 }, (_, index) => `line ${index}`);
    const after = [...before.slice(0, 10), "changed", ...before.slice(11)];
    expect(lineDiff(before, after)).toEqual([
      { op: "-", line: 11, text: "line 10" },
      { op: "+", line: 11, text: "changed" },
    ]);
  });
});
