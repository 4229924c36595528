import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest, ScriptedReply } from "../support/scripted-model-server.js";
import type { TmuxTerminal } from "../support/tmux.js";
import { countIn, openFixtureTui, type FixtureTui } from "../support/fixture-tui.js";

/**
 * An approval panel whose arguments are far taller than the window, in the real binary in
 * tmux. It must fit the window (the heading, the choices and the key line on screen, the
 * arguments clipped with a line saying where all of them are), at any size it is resized to,
 * and leave no copy of itself in the scrollback however often it is redrawn.
 */
const TITLE = "Allow this call?";
// About 7 KB on one line of JSON: ~95 rows in an 80-column panel.
const WORDS = Array.from({ length: 1000 }, (_, index) => `w${String(index).padStart(4, "0")}`);
const LAST_WORD = WORDS.at(-1) ?? "";
let tui: FixtureTui;
let terminal: TmuxTerminal;

function reply(request: RecordedRequest): ScriptedReply {
  const messages = (request.body as { messages: Array<{ role: string }> }).messages;
  if (messages.at(-1)?.role === "tool") return { text: "Understood, no note then." };
  const args = { name: "long.md", text: WORDS.join(" ") };
  return { toolCalls: [{ name: "fixture__write_note", arguments: JSON.stringify(args) }] };
}

/** The status line's clock has reached `seconds`: the spinner has ticked, and redrawn, meanwhile. */
const clockPast = (seconds: number) => (screen: string) =>
  [...screen.matchAll(/ (\d+)\.\d s/g)].some((match) => Number(match[1]) >= seconds);

beforeAll(async () => {
  tui = await openFixtureTui("approval-fit", reply, { columns: 80, rows: 20, scrollback: 5000 });
  terminal = tui.terminal;
});

afterAll(() => tui.close());

describe("an approval panel taller than the window", () => {
  it("fits every size it is given, says where the rest is, and is never copied into the scrollback", async () => {
    await terminal.waitFor((screen) => screen.includes("1/1 servers ready"), "the server");
    terminal.text("write the long note");
    await terminal.waitFor((screen) => screen.includes("› write the long note"), "the message typed");
    terminal.text("\r");

    // 80x20: the heading, every choice and the key line are on screen, the arguments clipped.
    await terminal.waitForRows((rows) => rows.includes("Esc deny"), "the panel");
    const small = await terminal.waitFor(clockPast(3), "a few spinner ticks while the panel waits");
    const visible = terminal.rows();
    expect(visible).toContain(TITLE);
    expect(visible).toContain("fixture/write_note");
    expect(visible).toContain("dangerous");
    for (const choice of [
      "1. Deny (n)",
      "2. Deny and",
      "3. Approve once",
      "4. Always allow",
      "5. Always allow",
    ])
      expect(visible).toContain(choice);
    expect(visible).toMatch(/… \d+ more rows: .*printed above/);
    // One panel in the whole scrollback, however often the spinner redrew it; the arguments'
    // end is there once, printed in full above the panel.
    expect(countIn(small, TITLE), small).toBe(1);
    expect(countIn(small, LAST_WORD), small).toBe(1);

    // Wider and taller: fitted again, still whole at the top.
    terminal.resize(120, 40);
    const large = await terminal.waitForRows(
      (rows) => /… \d+ more rows: .*printed above this panel/.test(rows) && rows.includes(TITLE),
      "the panel fitted to 120x40",
    );
    expect(large).toContain("1. Deny (n)");

    // A window of five rows: the heading, the focused choice and the key line, nothing else;
    // the heading is the tier and as much of the tool's name as 16 columns hold, both ends.
    terminal.resize(20, 5);
    const tiny = await terminal.waitForRows(
      (rows) => rows.includes("dangerous") && rows.includes("Enter confirm"),
      "the panel fitted to 20x5",
    );
    expect(tiny).toContain("fixtur…e_note #1");
    expect(tiny).toContain("› 1. Deny");

    // The answer still works, and the full arguments stay in the scrollback once.
    terminal.resize(80, 20);
    await terminal.waitForRows((rows) => rows.includes("Esc deny"), "the panel again");
    terminal.text("n");
    const after = await terminal.waitFor(
      (screen) => screen.includes("Understood, no note then."),
      "the answer",
    );
    expect(countIn(after, LAST_WORD), after).toBe(1);
  }, 90_000);
});
