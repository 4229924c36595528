import { describe, expect, it } from "vitest";
import { BoundedLines } from "../../src/core/mcp/bounded-lines.js";

describe("BoundedLines", () => {
  it("reads on from a mark: only lines begun after it, not the end of one begun before", () => {
    const lines = new BoundedLines();
    lines.write("before\nhalf of a line ");
    const mark = lines.written;
    lines.write("finished later\nafter one\nafter two (partial)");
    expect(lines.since(mark)).toEqual(["after one", "after two (partial)"]);
  });

  it("keeps reading from a mark once older lines were dropped", () => {
    const lines = new BoundedLines(3);
    lines.write("a\nb\n");
    const mark = lines.written;
    lines.write("c\nd\ne\nf\n");
    expect(lines.since(mark)).toEqual(["d", "e", "f"]);
  });

  it("holds a line that never ends only as far as it is shown", () => {
    const lines = new BoundedLines(10, 20);
    for (let chunk = 0; chunk < 1000; chunk += 1) lines.write("x".repeat(10_000));
    expect(lines.snapshot()).toEqual([`${"x".repeat(20)}…`]);
    lines.write("y\nnext\n");
    expect(lines.snapshot()).toEqual([`${"x".repeat(20)}…`, "next"]);
  });
});
