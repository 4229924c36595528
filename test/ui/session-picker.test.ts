import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { ANSWER_GUARD_MS, TYPED_AHEAD_NOTE } from "../../src/common/cli-io.js";
import { NOTHING_PICKED, pickSessionAtTerminal } from "../../src/ui/app/session-picker.js";
import { terminalIo } from "../support/terminal-io.js";

const sessions = [
  { id: "newer", modified: new Date(), first: "the newer session", turns: 1, readable: true },
  { id: "older", modified: new Date(), first: "an older one", turns: 3, readable: true },
];

/**
 * Waits until `ms` have passed since `from` on performance.now(), the clock the guard reads. A
 * timer counts from the event loop's time in whole milliseconds, up to one behind it, and so may
 * fire a fraction of a millisecond early.
 */
async function waitPast(from: number, ms: number): Promise<void> {
  for (let left = ms; left > 0; left = from + ms - performance.now()) await delay(Math.ceil(left) + 1);
}

describe("the session picker asked before the TUI", () => {
  it("takes a number typed after it showed, and gives keys typed for the prompt back afterwards", async () => {
    const { io, shown } = terminalIo();
    const { stdin } = io;
    // Typed into the prompt drawn before the picker: "2" and Enter is no pick, the draft is the prompt's.
    stdin.write("2\rmy question");
    const picked = pickSessionAtTerminal(io, sessions, 80);
    // The guard started inside that call; a person reads the question first.
    await waitPast(performance.now(), ANSWER_GUARD_MS);
    stdin.write("\n");
    expect(await picked).toBe("newer");
    expect(shown()).toContain(`Enter for 1, n for a new session] ${TYPED_AHEAD_NOTE}`);
    expect(String(stdin.read())).toBe("\u001b[200~my question\u001b[201~");
  });

  it("starts nothing when left unanswered, by Ctrl+C or by Ctrl+D ending the input", async () => {
    for (const leave of ["ctrl+c", "ctrl+d"] as const) {
      const { io, stop, shown } = terminalIo();
      const picked = pickSessionAtTerminal(io, sessions, 80);
      if (leave === "ctrl+c") stop.abort();
      else io.stdin.end();
      expect(await picked).toBe(NOTHING_PICKED);
      expect(shown()).not.toContain("Starting a new session");
    }
  });
});
