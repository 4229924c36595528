import { describe, expect, it } from "vitest";
import { answeredYes } from "../../src/common/terminal-question.js";

describe("what counts as yes at the terminal", () => {
  it.each<[string | undefined, boolean, boolean]>([
    ["y", true, false],
    ["Y", true, false],
    ["yes", true, true],
    ["  YES ", true, true],
    [" y\t", true, false],
    ["", false, false],
    [undefined, false, false],
    ["n", false, false],
    ["yeah", false, false],
    ["y es", false, false],
    ["yes please", false, false],
  ])("%j: yes %s, yes in full %s", (answer, yes, fullYes) => {
    expect(answeredYes(answer)).toBe(yes);
    expect(answeredYes(answer, true)).toBe(fullYes);
  });
});
