import { describe, expect, it } from "vitest";
import {
  initialPromptState,
  reducePrompt,
  type PromptAction,
  type PromptEffect,
  type PromptState,
} from "../../src/ui/prompt/prompt-reducer.js";

/** An action without its time, which the run gives it (each a second after the one before). */
type WithoutAt<Action> = Action extends unknown ? Omit<Action, "at"> : never;
type Step = WithoutAt<PromptAction>;

function run(...actions: Step[]): { state: PromptState; effects: PromptEffect[] } {
  let state = initialPromptState;
  const effects: PromptEffect[] = [];
  actions.forEach((action, index) => {
    const result = reducePrompt(state, { ...action, at: 1000 + index * 1000 });
    state = result.state;
    effects.push(...result.effects);
  });
  return { state, effects };
}

const paste = (text: string) => ({ type: "paste" as const, text });
const send = { type: "send" as const, queue: { queued: 0, busy: false } };
const FOUR_HUNDRED = Array.from({ length: 400 }, (_, index) => `row ${index + 1}`).join("\r");

describe("a paste as terminals send it", () => {
  it("keeps the line breaks of a paste whose lines end in CR, as xterm, iTerm2 and tmux send them", () => {
    expect(run(paste("alpha\rbeta\rgamma")).state.editor.text).toBe("alpha\nbeta\ngamma");
    expect(run(paste("one\r\ntwo")).state.editor.text).toBe("one\ntwo");
  });

  it("still strips what would drive the terminal from a paste", () => {
    expect(run(paste("a\u001b[2Jb\u202e\rc")).state.editor.text).toBe("ab\nc");
  });

  it("puts a large paste in as a placeholder, and sends it whole, in its place", () => {
    const { state } = run({ type: "insert", text: "review this: " }, paste(FOUR_HUNDRED), {
      type: "insert",
      text: " thanks",
    });
    expect(state.editor.text).toBe("review this: [Pasted text #1 +400 lines] thanks");
    const sent = reducePrompt(state, { ...send, at: 9000 });
    expect(sent.effects).toEqual([
      { type: "submit", text: `review this: ${FOUR_HUNDRED.replaceAll("\r", "\n")} thanks` },
    ]);
    expect(sent.state.editor.text).toBe("");
    expect(sent.state.pastes).toEqual([]);
  });

  it("numbers each large paste, and a placeholder the person edited is sent as typed", () => {
    const { state } = run(paste(FOUR_HUNDRED), paste("x".repeat(3000)));
    expect(state.editor.text).toBe("[Pasted text #1 +400 lines][Pasted text #2 3000 characters]");
    const edited = reducePrompt(state, { type: "edit", edit: "backspace", at: 5000 }).state;
    const sent = reducePrompt(edited, { ...send, at: 6000 });
    expect(sent.effects).toEqual([
      { type: "submit", text: `${FOUR_HUNDRED.replaceAll("\r", "\n")}[Pasted text #2 3000 characters` },
    ]);
  });

  it("gives the external editor the draft with its pastes in place", () => {
    const { state } = run(paste(FOUR_HUNDRED));
    const opened = reducePrompt(state, { type: "open_editor", at: 5000 });
    expect(opened.effects).toEqual([{ type: "open_editor", text: FOUR_HUNDRED.replaceAll("\r", "\n") }]);
  });

  it("keeps a small paste as text", () => {
    expect(run(paste("a\rb\rc")).state.pastes).toEqual([]);
  });
});
