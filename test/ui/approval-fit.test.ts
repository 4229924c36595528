import { describe, expect, it } from "vitest";
import {
  fitApproval,
  fittedRows,
  MIN_ARG_ROWS,
  type ApprovalSizes,
} from "../../src/ui/panels/approval-fit.js";
import { approvalHeading, clippedArgsLine, wrappedRows } from "../../src/ui/panels/approval-rows.js";

/** A dangerous write_note call with a one-row tier reason, and the prompt and status line under it. */
const sizes = (rows: number, args: number, more: Partial<ApprovalSizes> = {}): ApprovalSizes => ({
  rows,
  heading: 1,
  tierReason: 1,
  warnings: 0,
  args,
  waiting: 0,
  queued: 0,
  prompt: 3,
  promptEmpty: true,
  status: 2,
  ...more,
});

describe("fitApproval", () => {
  it("shows everything when it fits", () => {
    const fit = fitApproval(sizes(40, 5));
    expect(fit).toMatchObject({ argRows: 5, clipLine: false, border: true, guardLine: true, status: true });
    expect(fittedRows(sizes(40, 5), fit)).toBe(2 + 1 + 1 + 5 + 1 + 5 + 1 + 1 + 3 + 2);
  });

  it("clips long arguments to the rows left, with the line saying so", () => {
    const fit = fitApproval(sizes(39, 95));
    expect(fit.clipLine).toBe(true);
    expect(fittedRows(sizes(39, 95), fit)).toBe(39);
    expect(fit.argRows).toBe(39 - (2 + 1 + 1 + 1 + 1 + 5 + 1 + 1 + 3 + 2));
  });

  it("lets the guard sentence and the spacer go before the arguments drop under a few rows", () => {
    const fit = fitApproval(sizes(19, 95));
    expect(fit).toMatchObject({ argRows: MIN_ARG_ROWS, guardLine: false, clipLine: true, border: true });
    expect(fittedRows(sizes(19, 95), fit)).toBeLessThanOrEqual(19);
  });

  it("keeps the heading, the focused choice and the key line in a window of four rows", () => {
    const tiny = sizes(4, 3, { heading: 2 });
    const fit = fitApproval(tiny);
    expect(fit).toMatchObject({
      argRows: 0,
      border: false,
      otherChoices: false,
      prompt: false,
      status: false,
    });
    expect(fittedRows(tiny, fit)).toBeLessThanOrEqual(4);
  });

  it("never hides a draft the person is typing", () => {
    const fit = fitApproval(sizes(5, 3, { promptEmpty: false }));
    expect(fit.prompt).toBe(true);
  });

  it("never grows taller than the rows it is given while they hold its essentials", () => {
    for (let rows = 4; rows <= 60; rows += 1)
      for (const args of [0, 1, 3, 10, 200]) {
        const given = sizes(rows, args, { heading: 2, warnings: 2, waiting: 2, queued: 2 });
        expect(fittedRows(given, fitApproval(given)), `${rows} rows, ${args} args`).toBeLessThanOrEqual(rows);
      }
  });
});

describe("the approval panel's rows", () => {
  it("wraps long lines by words, marking the rows that go on a line", () => {
    const rows = wrappedRows('{\n  "text": "aaa bbb ccc ddd"\n}\n', 12);
    expect(rows.map((row) => row.text)).toEqual(["{", '  "text":', '"aaa bbb', 'ccc ddd"', "}"]);
    expect(rows.map((row) => row.continued)).toEqual([false, false, true, true, false]);
  });

  it("shortens the title beside the badge before the tool's name loses room to it", () => {
    const call = { label: "fixture/write_note", number: 1, tier: "dangerous" as const };
    expect(approvalHeading(call, undefined, 116)).toMatchObject({
      title: "Allow this call?",
      badgeOnTitle: true,
      nameOnTitle: true,
      rows: 1,
    });
    // 30 columns: "Allow?" and the badge, the name whole on its own row.
    expect(approvalHeading(call, undefined, 26)).toMatchObject({
      title: "Allow?",
      badgeOnTitle: true,
      nameOnTitle: false,
      nameRoom: 26,
    });
    // 20 columns: the badge alone on the title row, so the name keeps its 16.
    expect(approvalHeading(call, undefined, 16)).toMatchObject({
      title: "",
      badgeOnTitle: true,
      nameOnTitle: false,
      nameRoom: 16,
      rows: 2,
    });
    expect(approvalHeading(call, { index: 1, total: 2 }, 16)).toMatchObject({ title: "1/2", nameRoom: 16 });
    // Too narrow for even the badge beside a count: the badge goes to the name's row, as before.
    expect(approvalHeading(call, { index: 1, total: 2 }, 12)).toMatchObject({ badgeOnTitle: false });
  });

  it("says how many rows are not shown and where all of them are, as long as the width allows", () => {
    expect(clippedArgsLine(20, 95, 116)).toBe(
      "… 75 more rows: the full arguments (95 rows) are printed above this panel (scroll up)",
    );
    expect(clippedArgsLine(20, 95, 60)).toBe("… 75 more rows: all 95 are printed above (scroll up)");
    expect(clippedArgsLine(0, 95, 76)).toBe(
      "The arguments (95 rows) are printed in full above this panel (scroll up)",
    );
  });
});
