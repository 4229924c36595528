import { describe, expect, it } from "vitest";
import { renderApp } from "../support/app-harness.js";
import { RAW_KEY_CASES } from "../support/raw-key-cases.js";

/**
 * The bytes terminals send, written to the App's stdin as one read each (or several keys in one
 * read), checked on the drawn prompt. `|` in a description marks where the cursor was.
 */
describe("editing keys from raw terminal bytes", () => {
  it.each(RAW_KEY_CASES)("%s", async (_name, chunks, expected) => {
    const { press, until, prompt, controller } = await renderApp();
    await press(...chunks);
    await until(
      () => prompt() === expected,
      `the prompt to read ${JSON.stringify(expected)}, not ${JSON.stringify(prompt())}`,
    );
    expect(controller.submitted).toEqual([]);
  });

  it("a line and Enter in one read send the line; a paste's lines go as one message", async () => {
    const { press, until, prompt, controller } = await renderApp();
    await press("abc\r");
    await until(() => controller.submitted.length === 1, "the line to be sent");
    expect(controller.submitted).toEqual(["abc"]);
    await press("\u001b[200~one\ntwo\u001b[201~");
    await until(() => prompt() === "one\ntwo", "the paste in the prompt");
    expect(controller.submitted).toEqual(["abc"]);
    await press("\r");
    await until(() => controller.submitted.length === 2, "the paste to be sent");
    expect(controller.submitted).toEqual(["abc", "one\ntwo"]);
  });

  it("↑ on a recalled multi-line entry goes to the entry before it, not up its lines", async () => {
    const { press, until, prompt, controller } = await renderApp();
    await press("first\r");
    await press("\u001b[200~one\ntwo\u001b[201~", "\r");
    await until(() => controller.submitted.length === 2, "both messages sent");
    await press("\u001b[A");
    await until(() => prompt() === "one\ntwo", "↑ to recall the multi-line entry");
    await press("\u001b[A");
    await until(() => prompt() === "first", "↑ to recall the entry before it");
    await press("\u001b[B");
    await until(() => prompt() === "one\ntwo", "↓ to come back");
    // After a sideways move, ↑ walks the entry's lines: the X lands on its first line, in the same column.
    await press("\u001b[D", "\u001b[A", "X");
    await until(() => prompt() === "onXe\ntwo", "↑ to move up a line after ←");
  });
});

/**
 * Ctrl+X then something that finishes no chord: the chord and its next key are dropped, as in
 * readline, and nothing more: a paste, the rest of a read, or a Ctrl+C meant to stop a turn.
 */
describe("a key after a stray Ctrl+X", () => {
  it("a paste after it is inserted whole", async () => {
    const { press, until, prompt } = await renderApp();
    await press("keep ", "\u0018", "\u001b[200~important pasted paragraph\u001b[201~");
    await until(() => prompt() === "keep important pasted paragraph", "the paste in the prompt");
  });

  it("a read of typing after it loses only its first key", async () => {
    const { press, until, prompt } = await renderApp();
    await press("\u0018", "xhello");
    await until(() => prompt() === "hello", "the rest of the read typed");
    await press("\u0018z", " there");
    await until(() => prompt() === "hello there", "Ctrl+X and z in one read, both dropped");
  });

  it("Ctrl+C after it still cancels the running turn", async () => {
    const { press, until, controller } = await renderApp();
    controller.busy = true;
    await press("\u0018", "\u0003");
    await until(() => controller.cancelled === 1, "Ctrl+C to cancel the turn");
  });
});
