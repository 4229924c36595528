import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readLineFromTerminal } from "../../src/common/cli-io.js";
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

describe("questions asked one after another at the terminal", () => {
  it("reads the second answer too, though the first question left stdin paused", async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const signal = new AbortController().signal;
    let clock = 0;
    const now = (): number => clock;
    const first = readLineFromTerminal(stdin, signal, { now });
    clock = 1000;
    stdin.write("1\n");
    expect(await first).toBe("1");
    expect(stdin.isPaused()).toBe(true);
    const second = readLineFromTerminal(stdin, signal, { now });
    clock = 2000;
    stdin.write("y\n");
    expect(await second).toBe("y");
  });
});
