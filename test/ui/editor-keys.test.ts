import { describe, expect, it } from "vitest";
import { keyAction } from "../../src/ui/keys/keymap.js";
import { splitTyped } from "../../src/ui/keys/key-event.js";
import {
  initialPromptState,
  keyMode,
  reducePrompt,
  type PromptEffect,
  type PromptState,
} from "../../src/ui/prompt/prompt-reducer.js";

const context = { inspecting: false, exitArmed: false, busy: false };

/** The raw bytes a terminal sends, through the keymap and the reducer, as the App applies them. */
function press(
  bytes: string,
  start: PromptState = initialPromptState,
): { state: PromptState; effects: PromptEffect[] } {
  let state = start;
  const effects: PromptEffect[] = [];
  for (const key of splitTyped(bytes)) {
    const action = keyAction(keyMode(state, context), key);
    if (
      action.type === "interrupt" ||
      action.type === "complete" ||
      action.type === "send" ||
      action.type === "vertical"
    )
      throw new Error(`unexpected ${action.type}`);
    const result = reducePrompt(
      state,
      action.type === "delete_or_exit"
        ? { ...action, busy: context.busy, armed: false, at: 0 }
        : { ...action, at: 0 },
    );
    state = result.state;
    effects.push(...result.effects);
  }
  return { state, effects };
}

describe("the editor keys", () => {
  it("open the editor on Ctrl+X Ctrl+E, in one read or two, and on Ctrl+G", () => {
    const typed = press("fix the bug").state;
    expect(press("\u0018\u0005", typed).effects).toEqual([{ type: "open_editor", text: "fix the bug" }]);
    const half = press("\u0018", typed).state;
    expect(keyMode(half, context)).toBe("ctrl-x");
    expect(press("\u0005", half).effects).toEqual([{ type: "open_editor", text: "fix the bug" }]);
    expect(press("\u0007", typed).effects).toEqual([{ type: "open_editor", text: "fix the bug" }]);
  });

  it("drop a key after Ctrl+X that finishes no chord, and Ctrl+E alone still goes to the line's end", () => {
    const typed = press("abc\u0001").state;
    const cancelled = press("\u0018z", typed);
    expect(cancelled.effects).toEqual([]);
    expect(cancelled.state.editor).toEqual({ text: "abc", cursor: 0 });
    expect(keyMode(cancelled.state, context)).toBe("prompt");
    expect(press("\u0005", typed).state.editor).toEqual({ text: "abc", cursor: 3 });
  });
});
