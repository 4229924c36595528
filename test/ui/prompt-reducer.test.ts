import { describe, expect, it } from "vitest";
import { APPROVAL_GUARD_MS as GUARD } from "../../src/ui/keys/approval-guard.js";
import type { KeyAction } from "../../src/ui/keys/keymap.js";
import {
  initialPromptState,
  keyMode,
  reducePrompt,
  type PromptAction,
  type PromptEffect,
  type PromptState,
} from "../../src/ui/prompt/prompt-reducer.js";

type Step = PromptAction | [at: number, action: KeyAction];

/** Runs the steps from `state`; `[at, keyAction]` is shorthand for a key arriving at `at`. */
function run(state: PromptState, ...steps: Step[]): { state: PromptState; effects: PromptEffect[] } {
  const effects: PromptEffect[] = [];
  let current = state;
  for (const step of steps) {
    const action = Array.isArray(step) ? withAt(step[1], step[0]) : step;
    const result = reducePrompt(current, action);
    current = result.state;
    effects.push(...result.effects);
  }
  return { state: current, effects };
}

const noQueue = { queued: 0, busy: false };

function withAt(action: KeyAction, at: number): PromptAction {
  if (action.type === "interrupt") return { type: "interrupt", turnCancelled: false, at };
  if (action.type === "delete_or_exit") return { type: "delete_or_exit", busy: false, armed: false, at };
  if (action.type === "complete") return { type: "complete", items: [], at };
  if (action.type === "send") return { type: "send", queue: noQueue, at };
  if (action.type === "vertical") return { ...action, queue: noQueue, at };
  return { ...action, at };
}

const show = (at: number, callId = "c1"): PromptAction => ({ type: "approval_sync", callId, at });
const type = (text: string): KeyAction => ({ type: "insert", text });
const shortcut = (text: "y" | "a" | "n" | "d"): KeyAction => ({
  type: "approval_shortcut",
  choice: ({ y: "once", a: "always", n: "deny", d: "reason" } as const)[text],
  text,
});
const ENTER: KeyAction = { type: "approval_confirm" };
const UP: KeyAction = { type: "approval_focus", direction: -1 };
const DOWN: KeyAction = { type: "approval_focus", direction: 1 };
const answers = (effects: PromptEffect[]): unknown[] =>
  effects.filter((effect) => effect.type === "answer").map((effect) => effect.answer);

/** The panel for c1 appeared at 1000 and nothing was typed. */
const panel = run(initialPromptState, show(1000)).state;

describe("approval guard", () => {
  it.each<[string, PromptState, Step[], unknown[], string]>([
    ["y right after the panel appears is typing", panel, [[1100, shortcut("y")]], [], "y"],
    ["a right after the panel appears is typing", panel, [[1000, shortcut("a")]], [], "a"],
    [
      "y once the guard has passed approves once",
      panel,
      [[1000 + GUARD, shortcut("y")]],
      [{ kind: "once" }],
      "",
    ],
    [
      "a once the guard has passed always allows",
      panel,
      [[1000 + GUARD, shortcut("a")]],
      [{ kind: "always" }],
      "",
    ],
    ["n once the guard has passed denies", panel, [[1000 + GUARD, shortcut("n")]], [{ kind: "deny" }], ""],
    [
      "typing restarts the guard: y soon after the last typed key is typing",
      run(panel, [1500, type("x")], [1600, { type: "edit", edit: "backspace" }]).state,
      [[1600 + GUARD - 1, shortcut("y")]],
      [],
      "y",
    ],
    [
      "y a guard's time after the last typed key approves",
      run(panel, [1500, type("x")], [1600, { type: "edit", edit: "backspace" }]).state,
      [[1600 + GUARD, shortcut("y")]],
      [{ kind: "once" }],
      "",
    ],
    [
      "with a draft in the prompt, y is typing however long the pause",
      panel,
      [
        [1100, type("the ")],
        [9000, shortcut("a")],
      ],
      [],
      "the a",
    ],
    [
      "an edit is typing too: Backspace holds the guard up",
      run(panel, [1100, type("x")], [5000, { type: "edit", edit: "backspace" }]).state,
      [[5000 + GUARD - 1, shortcut("y")]],
      [],
      "y",
    ],
    [
      "a digit during the guard is typing",
      panel,
      [[1200, { type: "approval_pick", index: 0, text: "1" }]],
      [],
      "1",
    ],
    ["Enter during the guard does nothing", panel, [[1200, ENTER]], [], ""],
    [
      "Enter during the guard holds it up: a second Enter soon after does nothing",
      panel,
      [
        [1700, ENTER],
        [1700 + GUARD - 1, ENTER],
      ],
      [],
      "",
    ],
    [
      "Enter after the guard confirms the focus, which starts on Deny",
      panel,
      [[1000 + GUARD, ENTER]],
      [{ kind: "deny" }],
      "",
    ],
    [
      "↑ during the guard moves nothing, so a later Enter still denies",
      panel,
      [
        [1100, UP],
        [5000, ENTER],
      ],
      [{ kind: "deny" }],
      "",
    ],
    [
      "↑ then Enter right after the guard denies: Deny is the top and ↑ stays on it",
      panel,
      [
        [1000 + GUARD, UP],
        [1000 + GUARD, ENTER],
      ],
      [{ kind: "deny" }],
      "",
    ],
    [
      "↑ ↑ ↑ Enter after the guard still denies: the focus stops at the top, it does not wrap",
      panel,
      [
        [2000, UP],
        [2000, UP],
        [2000, UP],
        [2000, ENTER],
      ],
      [{ kind: "deny" }],
      "",
    ],
    [
      "↓ ↓ then Enter once the focus stood still a guard's time approves once",
      panel,
      [
        [2000, DOWN],
        [2000, DOWN],
        [2000 + GUARD, ENTER],
      ],
      [{ kind: "once" }],
      "",
    ],
    [
      "↓ ↓ then Enter at once decides nothing: a yes reached by moving waits for the focus to settle",
      panel,
      [
        [2000, DOWN],
        [2000, DOWN],
        [2000 + GUARD - 1, ENTER],
      ],
      [],
      "",
    ],
    [
      "↓ held down then Enter saves nothing; Enter once it stood still saves to the project, the bottom",
      panel,
      [
        [2000, DOWN],
        [2000, DOWN],
        [2000, DOWN],
        [2000, DOWN],
        [2000, DOWN],
        [2000, DOWN],
        [2000, ENTER],
        [2000 + GUARD, ENTER],
      ],
      [{ kind: "project" }],
      "",
    ],
    [
      "↓ held down, then Enter held down (repeats every 33 ms), saves nothing",
      panel,
      [
        ...Array.from({ length: 20 }, (_, index): [number, KeyAction] => [2000 + index * 33, DOWN]),
        ...Array.from({ length: 60 }, (_, index): [number, KeyAction] => [2660 + index * 33, ENTER]),
      ],
      [],
      "",
    ],
    [
      "a digit after the guard focuses; Enter confirms",
      panel,
      [
        [2000, { type: "approval_pick", index: 3, text: "4" }],
        [2000 + GUARD, ENTER],
      ],
      [{ kind: "always" }],
      "",
    ],
    [
      "a digit after the guard only focuses: 3 alone approves nothing",
      panel,
      [[2000, { type: "approval_pick", index: 2, text: "3" }]],
      [],
      "",
    ],
    [
      "Esc during the guard denies: denying is always allowed",
      panel,
      [[1001, { type: "approval_deny" }]],
      [{ kind: "deny" }],
      "",
    ],
    [
      "typing just before the panel appears counts",
      run(initialPromptState, [900, type("s")], [901, { type: "edit", edit: "backspace" }], show(1000)).state,
      [[901 + GUARD, shortcut("y")]],
      [],
      "y",
    ],
    [
      "a new call starts its own guard",
      run(panel, [1000 + GUARD, shortcut("n")], show(5000, "c2")).state,
      [[5100, shortcut("y")]],
      [],
      "y",
    ],
    [
      "the same call seen again keeps its guard",
      run(panel, show(4000)).state,
      [[1000 + GUARD, shortcut("y")]],
      [{ kind: "once" }],
      "",
    ],
  ])("%s", (_name, state, steps, expected, editorText) => {
    const result = run(state, ...steps);
    expect(answers(result.effects)).toEqual(expected);
    expect(result.state.editor.text).toBe(editorText);
  });

  it("an answer names the call it answers, and keys then go to the prompt", () => {
    const answered = run(panel, [2000, shortcut("y")]);
    expect(answered.effects).toEqual([{ type: "answer", callId: "c1", answer: { kind: "once" } }]);
    expect(answered.state.approval).toBeUndefined();
    expect(keyMode(answered.state, { inspecting: false, exitArmed: false, busy: true })).toBe("prompt");
    // The owner of open questions took it off the list: a later sync says nothing is asked.
    const cleared = run(answered.state, { type: "approval_sync", callId: undefined, at: 3000 }, [
      3001,
      shortcut("y"),
    ]);
    expect(cleared.effects).toEqual([]);
    expect(cleared.state.editor.text).toBe("y");
  });

  it("↓ then Enter right after the guard asks for a reason and never approves", () => {
    const asked = run(panel, [1000 + GUARD, DOWN], [1000 + GUARD, ENTER]);
    expect(answers(asked.effects)).toEqual([]);
    expect(asked.state.approval?.reason).toEqual({ text: "", cursor: 0 });
    expect(keyMode(asked.state, { inspecting: false, exitArmed: false, busy: true })).toBe("approval-reason");
    // Enter again sends the (empty) reason: a plain deny, still no approval.
    expect(answers(run(asked.state, [1000 + GUARD + 1, { type: "reason_send" }]).effects)).toEqual([
      { kind: "deny" },
    ]);
  });

  it("d asks for a reason that is one line, edited with the editing keys, sent with Enter", () => {
    const asked = run(panel, [2000, shortcut("d")]);
    expect(answers(asked.effects)).toEqual([]);
    expect(keyMode(asked.state, { inspecting: false, exitArmed: false, busy: true })).toBe("approval-reason");
    const written = run(
      asked.state,
      [2100, type("not")],
      [2200, { type: "paste", text: " now\nplease" }],
      [2300, { type: "edit", edit: "deleteWordBack" }],
      [2400, type("thanks")],
    );
    expect(written.state.approval?.reason?.text).toBe("not now thanks");
    expect(written.state.editor.text).toBe("");
    expect(answers(run(written.state, [2500, { type: "reason_send" }]).effects)).toEqual([
      { kind: "deny", reason: "not now thanks" },
    ]);
    expect(answers(run(asked.state, [2500, { type: "reason_send" }]).effects)).toEqual([{ kind: "deny" }]);
    expect(answers(run(written.state, [2500, { type: "approval_deny" }]).effects)).toEqual([
      { kind: "deny" },
    ]);
  });
});

describe("prompt keys", () => {
  const typed = (text: string, cursor = text.length): PromptState => ({
    ...initialPromptState,
    editor: { text, cursor },
  });

  it.each<[string, PromptState, KeyAction, PromptEffect[], string]>([
    ["Enter sends", typed("hello"), { type: "send" }, [{ type: "submit", text: "hello" }], ""],
    ["Enter on blank text sends nothing", typed("  "), { type: "send" }, [], "  "],
    ["Enter after a backslash continues the line", typed("one\\"), { type: "send" }, [], "one\n"],
    ["Ctrl+C clears text", typed("draft"), { type: "interrupt" }, [], ""],
    [
      "Ctrl+C on an empty prompt arms exit",
      typed(""),
      { type: "interrupt" },
      [{ type: "transcript", action: { type: "ui_exit_armed", armed: true } }],
      "",
    ],
    ["Ctrl+D on an empty prompt exits", typed(""), { type: "delete_or_exit" }, [{ type: "exit" }], ""],
    ["Ctrl+D deletes forward", typed("abc", 1), { type: "delete_or_exit" }, [], "ac"],
    ["Esc cancels the turn", typed("x"), { type: "cancel_turn" }, [{ type: "cancel_turn" }], "x"],
    [
      "typed control sequences are dropped",
      typed(""),
      { type: "paste", text: "a\u001b[2Jb\nc" },
      [],
      "ab\nc",
    ],
    ["Alt+Enter inserts a line break", typed("a"), { type: "newline" }, [], "a\n"],
    [
      "Ctrl+K kills to the end of the line",
      typed("one two", 3),
      { type: "edit", edit: "deleteToLineEnd" },
      [],
      "one",
    ],
  ])("%s", (_name, state, action, effects, text) => {
    const result = run(state, [0, action]);
    expect(result.effects).toEqual(effects);
    expect(result.state.editor.text).toBe(text);
  });

  it.each<[string, PromptState, PromptAction, PromptEffect[], string]>([
    [
      "Enter with text during a turn sends it (the controller queues it)",
      typed("next"),
      { type: "send", queue: { queued: 1, busy: true }, at: 0 },
      [{ type: "submit", text: "next" }],
      "",
    ],
    [
      "Enter on an empty prompt with a held queue sends the next queued",
      typed(""),
      { type: "send", queue: { queued: 2, busy: false }, at: 0 },
      [{ type: "send_queued" }],
      "",
    ],
    [
      "Enter on an empty prompt during a turn does nothing",
      typed(""),
      { type: "send", queue: { queued: 2, busy: true }, at: 0 },
      [],
      "",
    ],
    [
      "Ctrl+D on an empty prompt during a turn asks for a second press, exiting nothing",
      typed(""),
      { type: "delete_or_exit", busy: true, armed: false, at: 0 },
      [{ type: "transcript", action: { type: "ui_leave_armed", armed: true } }],
      "",
    ],
    [
      "Ctrl+D with text during a turn deletes forward",
      typed("abc", 1),
      { type: "delete_or_exit", busy: true, armed: false, at: 0 },
      [],
      "ac",
    ],
    [
      "Ctrl+D on an empty prompt during a turn, pressed again, exits",
      typed(""),
      { type: "delete_or_exit", busy: true, armed: true, at: 0 },
      [{ type: "exit" }],
      "",
    ],
    [
      "↑ on an empty prompt with messages queued takes the last back",
      typed(""),
      { type: "vertical", direction: -1, queue: { queued: 1, busy: true }, at: 0 },
      [{ type: "take_queued" }],
      "",
    ],
    [
      "↑ with a draft walks lines and history as always",
      typed("draft"),
      { type: "vertical", direction: -1, queue: { queued: 1, busy: true }, at: 0 },
      [],
      "draft",
    ],
    [
      "a taken-back message lands in the prompt",
      typed(""),
      { type: "recall", text: "fix me", at: 0 },
      [],
      "fix me",
    ],
  ])("queue: %s", (_name, state, action, effects, text) => {
    const result = reducePrompt(state, action);
    expect(result.effects).toEqual(effects);
    expect(result.state.editor.text).toBe(text);
  });

  it("Ctrl+C while a turn was cancelled changes nothing", () => {
    const state = typed("draft");
    expect(reducePrompt(state, { type: "interrupt", turnCancelled: true, at: 0 })).toEqual({
      state,
      effects: [],
    });
  });

  const items = (...words: string[]) => words.map((word) => ({ word, description: `about ${word}` }));

  it("Tab completes from the words the controller gave, and opens the menu when several match", () => {
    const { state } = run(typed("/to"), { type: "complete", items: items("/tools", "/trace"), at: 0 });
    expect(state.editor.text).toBe("/tools ");
    expect(state.menu).toBeUndefined();
    const several = run(typed("/t"), { type: "complete", items: items("/tools", "/trace"), at: 0 }).state;
    expect(several.menu).toEqual({ word: "/t", items: items("/tools", "/trace"), selected: 0 });
    // Typing narrows it; a word nothing matches closes it.
    expect(run(several, [1, type("r")]).state.menu?.items).toEqual(items("/trace"));
    expect(run(several, [1, type("x")]).state.menu).toBeUndefined();
  });

  it("the menu's keys: ↓ and ↑ go round, Tab takes, Enter takes and runs a command, Esc closes it", () => {
    const open = run(typed("/"), {
      type: "menu_items",
      word: "/",
      items: items("/help", "/tools", "/trace"),
      at: 0,
    });
    expect(keyMode(open.state, { inspecting: false, exitArmed: false, busy: false })).toBe("menu");
    const moved = run(open.state, { type: "menu_move", direction: -1, at: 1 });
    expect(moved.state.menu?.selected).toBe(2);
    const tabbed = run(moved.state, { type: "menu_take", submit: false, at: 2 });
    expect(tabbed.state.editor.text).toBe("/trace ");
    expect(tabbed.effects).toEqual([]);
    const entered = run(
      open.state,
      { type: "menu_move", direction: 1, at: 1 },
      { type: "menu_take", submit: true, at: 2 },
    );
    expect(entered.effects).toEqual([{ type: "submit", text: "/tools" }]);
    const closed = run(open.state, { type: "menu_close", at: 1 });
    expect(closed.state.menu).toBeUndefined();
    // The same word does not bring it back; another word does.
    expect(
      run(closed.state, { type: "menu_items", word: "/", items: items("/help"), at: 2 }).state.menu,
    ).toBeUndefined();
    expect(
      run(closed.state, { type: "menu_items", word: "/h", items: items("/help"), at: 2 }).state.menu?.word,
    ).toBe("/h");
  });

  it("types a completed word in without the terminal controls a server may have put in it", () => {
    const { state } = run(typed("/ev"), {
      type: "complete",
      items: items("/every\u001b[2Jthing:x\u200b"),
      at: 0,
    });
    expect(state.editor.text).toBe("/everything:x ");
  });

  it("↑ on a recalled multi-line entry goes on through history; after an edit ↑ walks its lines", () => {
    const sent = run(
      initialPromptState,
      [0, type("first")],
      [0, { type: "send" }],
      [0, { type: "paste", text: "one\ntwo\nthree" }],
      [0, { type: "send" }],
      [0, type("last")],
      [0, { type: "send" }],
      [0, type("draft")],
    ).state;
    const up = (state: PromptState): PromptState =>
      run(state, [0, { type: "vertical", direction: -1 }]).state;
    const down = (state: PromptState): PromptState =>
      run(state, [0, { type: "vertical", direction: 1 }]).state;
    const last = up(sent);
    expect(last.editor.text).toBe("last");
    const multi = up(last);
    expect(multi.editor).toEqual({ text: "one\ntwo\nthree", cursor: 13 });
    expect(up(multi).editor.text).toBe("first");
    expect(down(multi).editor.text).toBe("last");
    expect(down(down(multi)).editor.text).toBe("draft");
    // A sideways move ends browsing: ↑ now moves up a line of the entry.
    const moved = run(multi, [0, { type: "edit", edit: "left" }]).state;
    expect(up(moved).editor).toEqual({ text: "one\ntwo\nthree", cursor: 7 });
    const edited = run(multi, [0, type("!")]).state;
    expect(up(edited).editor.text).toBe("one\ntwo\nthree!");
  });

  it("keeps a recalled entry as it was edited when ↑/↓ move on, and the draft too, until a send", () => {
    const sent = run(
      initialPromptState,
      [0, type("older")],
      [0, { type: "send" }],
      [0, type("dwrite")],
      [0, { type: "send" }],
      [0, type("my draft")],
    ).state;
    const key = (state: PromptState, direction: -1 | 1): PromptState =>
      run(state, [0, { type: "vertical", direction }]).state;
    const edited = run(key(sent, -1), [0, type(" --force")]).state;
    expect(edited.editor.text).toBe("dwrite --force");
    // ↓ back to the draft, ↑ to the edit: nothing typed is lost.
    const draft = key(edited, 1);
    expect(draft.editor.text).toBe("my draft");
    expect(key(draft, -1).editor.text).toBe("dwrite --force");
    // ↑ past it and back, the same.
    const older = key(edited, -1);
    expect(older.editor.text).toBe("older");
    expect(key(older, 1).editor.text).toBe("dwrite --force");
    // Sent, the edit is a new entry, and the entry it came from is as it was sent.
    const resent = run(key(older, 1), [0, { type: "send" }]).state;
    expect(key(key(resent, -1), -1).editor.text).toBe("dwrite");
  });

  it("starts history from its newest entry again after Ctrl+C clears a recalled one", () => {
    const sent = run(
      initialPromptState,
      [0, type("one")],
      [0, { type: "send" }],
      [0, type("two")],
      [0, { type: "send" }],
      [0, type("three")],
      [0, { type: "send" }],
    ).state;
    const up = (state: PromptState): PromptState =>
      run(state, [0, { type: "vertical", direction: -1 }]).state;
    const cleared = run(up(up(sent)), [0, { type: "interrupt" }]).state;
    expect(cleared.editor.text).toBe("");
    expect(up(cleared).editor.text).toBe("three");
  });

  it.each<[string, Parameters<typeof keyMode>[1], PromptState, string]>([
    ["idle", { inspecting: false, exitArmed: false, busy: false }, initialPromptState, "prompt"],
    ["exit armed", { inspecting: false, exitArmed: true, busy: false }, initialPromptState, "exit-armed"],
    ["exit armed with a draft", { inspecting: false, exitArmed: true, busy: false }, typed("x"), "prompt"],
    [
      "exit armed while a turn runs",
      { inspecting: false, exitArmed: true, busy: true },
      initialPromptState,
      "prompt",
    ],
    ["inspecting", { inspecting: true, exitArmed: false, busy: false }, initialPromptState, "inspector"],
    ["asking wins over inspecting", { inspecting: true, exitArmed: false, busy: true }, panel, "approval"],
  ])("mode: %s", (_name, context, state, expected) => {
    expect(keyMode(state, context)).toBe(expected);
  });
});
