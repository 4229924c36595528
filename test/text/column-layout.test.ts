import { describe, expect, it } from "vitest";
import { displayWidth, layoutColumns } from "../../src/core/text/index.js";

const OPTIONS = { maxCell: 48, gap: 2 };

/** The display column at which `cell` starts in `line`. */
const columnOf = (line: string, cell: string): number => displayWidth(line.slice(0, line.indexOf(cell)));

describe("layoutColumns", () => {
  it("aligns a CJK /kb search table by display width", () => {
    const rows = [
      ["#", "passage", "score", "excerpt"],
      ["1", "部署/回滚.md:1-12", "3.20", "回滚步骤：先停止服务"],
      ["2", "deploy.md:4-9", "2.75", "rollback with systemctl"],
      ["3", "知识库/日本語のテキスト.md:20-31", "1.10", "テキスト"],
      ["4", "👨‍👩‍👧‍👦 family.md:1-2", "0.50", "emoji"],
    ];
    const table = layoutColumns(rows, OPTIONS);
    for (const row of table.rows) expect(displayWidth(row.lead)).toBe(table.lastStart);
    const scoreColumns = table.rows.map((row, index) => columnOf(row.lead, rows[index]?.[2] ?? ""));
    expect(new Set(scoreColumns)).toEqual(
      new Set([displayWidth("#  ") + displayWidth("知识库/日本語のテキスト.md:20-31  ")]),
    );
    expect(table.rows.map((row) => row.last)).toEqual(rows.map((row) => row.at(-1)));
    expect(table.lastWidth).toBe(displayWidth("rollback with systemctl"));
  });

  it("shortens a cell wider than maxCell in the middle, keeping its width exact", () => {
    const table = layoutColumns(
      [
        ["server", "reason"],
        ["a-very-long-server-name/知识库检索工具", "why"],
      ],
      { maxCell: 15, gap: 1 },
    );
    expect(table.lastStart).toBe(16);
    // The tail stops short of 检, which would overflow: the cut pads to the exact column width.
    expect(table.rows[1]?.lead).toBe("a-very-…索工具  ");
    expect(displayWidth(table.rows[1]?.lead ?? "")).toBe(16);
  });

  it.each([
    [[], 0, []],
    [[["only"]], 0, [{ lead: "", last: "only" }]],
    [
      [["a", "b", "c"], ["dd"]],
      7,
      [
        { lead: "a   b  ", last: "c" },
        { lead: "dd     ", last: "" },
      ],
    ],
  ])("lays out %j", (rows, lastStart, laidOut) => {
    const table = layoutColumns(rows, OPTIONS);
    expect(table.rows).toEqual(laidOut);
    expect(table.lastStart).toBe(lastStart);
  });

  it("with whole, never cuts a leading cell: one too wide goes whole above its row", () => {
    const usage = "/mcp [info <server> | logs <server> | loglevel <server> <level> | restart <server>]";
    const table = layoutColumns(
      [
        ["command", "what it does"],
        ["/help", "list the commands"],
        [usage, "server status"],
      ],
      { ...OPTIONS, whole: true },
    );
    // The column is as wide as the cells that fit it need, not maxCell.
    expect(table.lastStart).toBe("command".length + 2);
    expect(table.rows[1]).toEqual({ lead: "/help    ", last: "list the commands" });
    expect(table.rows[2]).toEqual({ lead: " ".repeat(9), last: "server status", above: usage });
  });
});
