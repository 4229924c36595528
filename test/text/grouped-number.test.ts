import { describe, expect, it } from "vitest";
import { groupedNumber } from "../../src/core/text/grouped-number.js";

describe("groupedNumber", () => {
  it("writes a number as toLocaleString('en-US') does", () => {
    for (const value of [
      0,
      7,
      999,
      1_000,
      12_345,
      100_000,
      1_234_567,
      -4_096,
      -999,
      32_768,
      2 ** 53 - 1,
      1.5,
      1e21,
    ])
      expect(groupedNumber(value)).toBe(value.toLocaleString("en-US"));
  });
});
