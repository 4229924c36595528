import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest, ScriptedReply } from "../support/scripted-model-server.js";
import type { TmuxTerminal } from "../support/tmux.js";
import { openFixtureTui, type FixtureTui } from "../support/fixture-tui.js";

/**
 * Three calls proposed together in the real binary in tmux: listed in the order the model
 * proposed them (not the order they finish in), and Ctrl+O opens the newest, during the turn
 * and right after it.
 */
const CTRL_O = "\u000f";
const ESC = "\u001b";
let tui: FixtureTui;
let terminal: TmuxTerminal;

function reply(request: RecordedRequest): ScriptedReply {
  const messages = (request.body as { messages: Array<{ role: string }> }).messages;
  if (messages.at(-1)?.role === "tool") return { text: "Both came back." };
  // Two calls that run until the turn is interrupted, with a quick one proposed between them.
  return {
    toolCalls: [
      { name: "fixture__slow", arguments: JSON.stringify({ ms: 120_000 }) },
      { name: "fixture__echo", arguments: JSON.stringify({ text: "quick answer" }) },
      { name: "fixture__slow", arguments: JSON.stringify({ ms: 110_000 }) },
    ],
  };
}

/** The row of the screen where `text` first shows, or -1. */
const rowOf = (screen: string, text: string): number =>
  screen.split("\n").findIndex((row) => row.includes(text));

beforeAll(async () => {
  tui = await openFixtureTui("calls", reply, { columns: 100, rows: 50 });
  terminal = tui.terminal;
});

afterAll(() => tui.close());

describe("calls proposed together", () => {
  it("are listed as proposed, and Ctrl+O opens the newest during the turn and after it", async () => {
    await terminal.waitFor((screen) => screen.includes("1/1 servers ready"), "the server");
    terminal.text("run them");
    await terminal.waitFor((screen) => screen.includes("› run them"), "the message typed");
    terminal.text("\r");
    const running = await terminal.waitFor(
      (screen) => screen.includes("⎿ quick answer") && (screen.match(/running/g) ?? []).length === 2,
      "the quick call done while the slow ones run",
    );
    const order = (screen: string): number[] =>
      ['{"ms":120000}', "fixture/echo", '{"ms":110000}'].map((text) => rowOf(screen, text));
    const listed = (screen: string): boolean =>
      order(screen).every((row, index, rows) => index === 0 || row > (rows[index - 1] ?? 0));
    expect(listed(running), running).toBe(true);

    // The newest call is the last one proposed, still running.
    terminal.text(CTRL_O);
    const during = await terminal.waitFor((screen) => screen.includes("Inspecting"), "the inspector");
    expect(during.split("\n")[rowOf(during, "Inspecting") + 1]).toContain('{"ms":110000}');

    // Esc closes the inspector; a second Esc interrupts the turn, cutting the slow calls off.
    terminal.text(ESC);
    await terminal.waitFor((screen) => !screen.includes("Inspecting"), "the inspector closed");
    terminal.text(ESC);
    const interrupted = await terminal.waitFor(
      (screen) => screen.includes("Interrupted"),
      "the interruption",
    );
    expect(listed(interrupted), interrupted).toBe(true);

    terminal.text(CTRL_O);
    const after = await terminal.waitFor((screen) => screen.includes("Inspecting"), "the inspector again");
    const header = after.split("\n").slice(rowOf(after, "Inspecting") + 1, rowOf(after, "Inspecting") + 3);
    expect(header.join("\n")).toMatch(/\{"ms":110000\}[^]*cancelled/);
  }, 90_000);
});
