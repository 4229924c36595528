import { describe, expect, it } from "vitest";
import { formatLimit, roughlyFromNow } from "../../src/core/llm/wait-text.js";

describe("formatLimit", () => {
  it.each([
    [300, "300 ms"],
    [1000, "1 s"],
    [1500, "1.5 s"],
    [60_000, "60 s"],
    [240_000, "240 s"],
  ])("%d ms reads %s", (ms, text) => {
    expect(formatLimit(ms)).toBe(text);
  });
});

describe("roughlyFromNow", () => {
  it.each([
    [25_000, "under a minute from now"],
    [70_000, "about a minute from now"],
    [600_000, "about 10 minutes from now"],
    [3_570_000, "about 1 hour from now"],
    [3_600_000, "about 1 hour from now"],
    [7_200_000, "about 2 hours from now"],
    [3 * 86_400_000, "about 3 days from now"],
  ])("%d ms reads %s", (ms, text) => {
    expect(roughlyFromNow(ms)).toBe(text);
  });
});
