import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { ANSWER_GUARD_MS, TYPED_AHEAD_NOTE } from "../../src/common/cli-io.js";
import { NOTHING_PICKED, pickSessionAtTerminal } from "../../src/ui/app/session-picker.js";
import { terminalIo } from "../support/terminal-io.js";

const sessions = [
  { id: "newer", modified: new Date(), first: "the newer session", turns: 1, readable: true },
  { id: "older", modified: new Date(), first: "an older one", turns: 3, readable: true },
];

describe("the session picker asked before the TUI", () => {
  it("takes a number typed after it showed, and gives keys typed for the prompt back afterwards", async () => {
    const { io, shown } = terminalIo();
    const { stdin } = io;
    // Typed into the prompt drawn before the picker: "2" and Enter is no pick, the draft is the prompt's.
    stdin.write("2\rmy question");
    const picked = pickSessionAtTerminal(io, sessions, 80);
    await delay(ANSWER_GUARD_MS);
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
