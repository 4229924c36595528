import { describe, expect, it } from "vitest";
import type { ElicitationQuestion } from "../../src/core/person/elicitation.js";
import { formFields } from "../../src/core/person/elicitation-form.js";
import type { SamplingQuestion } from "../../src/core/person/sampling.js";
import { APPROVAL_GUARD_MS as GUARD } from "../../src/ui/keys/approval-guard.js";
import type { KeyEvent } from "../../src/ui/keys/key-event.js";
import { keyAction, type KeyAction } from "../../src/ui/keys/keymap.js";
import {
  initialPromptState,
  keyMode,
  reducePrompt,
  type PromptAction,
  type PromptEffect,
  type PromptState,
} from "../../src/ui/prompt/prompt-reducer.js";
import type { ServerQuestion } from "../../src/ui/transcript/transcript-types.js";

const SAMPLING: ServerQuestion = {
  kind: "sampling",
  id: 1,
  question: {
    server: "everything",
    messages: [
      { role: "user", text: "first" },
      { role: "assistant", text: "ok" },
      { role: "user", text: "say hi" },
    ],
    systemPrompt: "be brief",
    modelHints: ["claude"],
    maxTokens: 100,
    temperature: 0.7,
    model: "scripted",
  } satisfies SamplingQuestion,
};

const PAGE: ServerQuestion = {
  kind: "elicitation",
  id: 2,
  question: {
    mode: "url",
    server: "everything",
    message: "Sign in",
    url: "https://example.com/login",
    domain: "example.com",
  } satisfies ElicitationQuestion,
};

const fields = formFields({
  type: "object",
  properties: { name: { title: "Name", type: "string" }, agree: { title: "Agree", type: "boolean" } },
  required: ["name"],
});
const FORM: ServerQuestion = {
  kind: "elicitation",
  id: 3,
  question: {
    mode: "form",
    server: "everything",
    message: "Who?",
    fields: "fields" in fields ? fields.fields : [],
  },
};

const text = (value: string): KeyEvent => ({ kind: "text", text: value });
const paste = (value: string): KeyEvent => ({ kind: "paste", text: value });
const key = (
  name: string,
  mods: Partial<{ ctrl: boolean; meta: boolean; shift: boolean }> = {},
): KeyEvent => ({
  kind: "key",
  name,
  ctrl: false,
  meta: false,
  shift: false,
  ...mods,
});
const ENTER = key("return");
const ESC = key("escape");

/** Keys (each at its time) put through the real keymap and reducer, the way the App does. */
function press(state: PromptState, ...steps: Array<[at: number, event: KeyEvent]>) {
  const effects: PromptEffect[] = [];
  let current = state;
  for (const [at, event] of steps) {
    const action = keyAction(keyMode(current, { inspecting: false, exitArmed: false, busy: true }), event);
    const result = reducePrompt(current, withAt(action, at));
    current = result.state;
    effects.push(...result.effects);
  }
  return {
    state: current,
    answers: effects.flatMap((effect) => (effect.type === "question_answer" ? [effect.answer.answer] : [])),
    effects,
  };
}

function withAt(action: KeyAction, at: number): PromptAction {
  const queue = { queued: 0, busy: true };
  if (action.type === "interrupt") return { type: "interrupt", turnCancelled: false, at };
  if (action.type === "complete") return { type: "complete", items: [], at };
  if (action.type === "send" || action.type === "vertical") return { ...action, queue, at };
  if (action.type === "delete_or_exit") return { ...action, busy: queue.busy, armed: false, at };
  return { ...action, at };
}

/** `question` appeared at 1000, with `draft` in the prompt. */
function shown(question: ServerQuestion, draft = ""): PromptState {
  const state = { ...initialPromptState, editor: { text: draft, cursor: draft.length } };
  return reducePrompt(state, { type: "question_sync", question, at: 1000 }).state;
}

const LATER = 1000 + GUARD;

describe("a sampling panel's keys", () => {
  it.each<[string, string, Array<[number, KeyEvent]>, unknown[], string]>([
    ["y right after the panel appears is typing", "", [[1100, text("y")]], [], "y"],
    ["Enter right after the panel appears decides nothing", "", [[1100, ENTER]], [], ""],
    ["y once the guard has passed sends it", "", [[LATER, text("y")]], [{ approved: true }], ""],
    [
      "Enter once the guard has passed confirms Deny, the first focus",
      "",
      [[LATER, ENTER]],
      [{ approved: false, reason: "the user denied it" }],
      "",
    ],
    [
      "↑ stays on Deny, the top: ↑ ↑ then, a guard's time later, Enter denies",
      "",
      [
        [LATER, key("up")],
        [LATER + 1, key("up")],
        [LATER + 1 + GUARD, ENTER],
      ],
      [{ approved: false, reason: "the user denied it" }],
      "",
    ],
    [
      "↓ ↓ ↓ then, a guard's time later, Enter sends it (Deny saying why, Edit, then Send below Deny)",
      "",
      [
        [LATER, key("down")],
        [LATER + 1, key("down")],
        [LATER + 2, key("down")],
        [LATER + 3, ENTER],
        [LATER + 3 + GUARD, ENTER],
      ],
      [{ approved: true }],
      "",
    ],
    [
      "↓ ↓ ↓ then Enter at once sends nothing: a move holds the choice for a guard's time",
      "",
      [
        [LATER, key("down")],
        [LATER + 1, key("down")],
        [LATER + 2, key("down")],
        [LATER + 3, ENTER],
      ],
      [],
      "",
    ],
    [
      "4 then Enter sends it",
      "",
      [
        [LATER, text("4")],
        [LATER + 1, ENTER],
      ],
      [{ approved: true }],
      "",
    ],
    ["with a draft, y types into it even after the guard", "draft ", [[LATER, text("y")]], [], "draft y"],
    [
      "typing holds the guard up: y just after a key is typing",
      "",
      [
        [LATER, text("x")],
        [LATER + 100, text("y")],
      ],
      [],
      "xy",
    ],
    ["a paste never answers, whatever it holds", "", [[LATER, paste("y\r")]], [], "y\n"],
    [
      "Esc denies at once, even during the guard",
      "",
      [[1001, ESC]],
      [{ approved: false, reason: "the user denied it" }],
      "",
    ],
    [
      "Ctrl+C denies at once",
      "draft",
      [[1001, key("c", { ctrl: true })]],
      [{ approved: false, reason: "the user denied it" }],
      "draft",
    ],
  ])("%s", (_name, draft, steps, answers, prompt) => {
    const result = press(shown(SAMPLING, draft), ...steps);
    expect(result.answers).toEqual(answers);
    expect(result.state.editor.text).toBe(prompt);
  });

  it("e opens the last user message to edit; the edit is sent only by a later Enter, and only if changed", () => {
    const opened = press(
      shown(SAMPLING, "my draft"),
      [LATER, key("down")],
      [LATER, key("down")],
      [LATER + GUARD, ENTER],
    );
    expect(keyMode(opened.state, { inspecting: false, exitArmed: false, busy: true })).toBe("sampling-edit");
    // Enter in the same burst as the key that opened the editor sends nothing.
    const hurried = press(opened.state, [LATER + GUARD + 1, ENTER]);
    expect(hurried.answers).toEqual([]);
    const unchanged = press(hurried.state, [LATER + 2 * GUARD, ENTER]);
    expect(unchanged.answers).toEqual([{ approved: true }]);
    const edited = press(
      opened.state,
      [LATER + GUARD + 2, text(" there")],
      [LATER + GUARD + 4, key("return", { meta: true })],
      [LATER + GUARD + 5, text("bye")],
      // A guard's time after the last key typed into the editor, not after it opened.
      [LATER + 2 * GUARD + 4, ENTER],
      [LATER + 2 * GUARD + 5, ENTER],
    );
    expect(edited.answers).toEqual([{ approved: true, editedText: "say hi there\nbye" }]);
    // The prompt's draft was never touched.
    expect(edited.state.editor.text).toBe("my draft");
  });

  it("Esc in the editor goes back to the list; d asks why, and the reason goes to the server", () => {
    const back = press(shown(SAMPLING), [LATER, text("e")], [LATER + 1, ESC]);
    expect(back.answers).toEqual([]);
    expect(keyMode(back.state, { inspecting: false, exitArmed: false, busy: true })).toBe("sampling");
    const reason = press(
      shown(SAMPLING),
      [LATER, text("d")],
      [LATER + 1, text("not now")],
      [LATER + 2, ENTER],
    );
    expect(reason.answers).toEqual([{ approved: false, reason: "the user denied it and said: not now" }]);
    const none = press(shown(SAMPLING), [LATER, text("d")], [LATER + 1, ESC]);
    expect(none.answers).toEqual([{ approved: false, reason: "the user denied it" }]);
  });
});

describe("a web page panel's keys", () => {
  it.each<[string, Array<[number, KeyEvent]>, unknown[]]>([
    ["y right after it appears opens nothing", [[1100, text("y")]], []],
    ["y after the guard opens it", [[LATER, text("y")]], [{ action: "accept", content: {} }]],
    ["n declines", [[LATER, text("n")]], [{ action: "decline" }]],
    ["Enter confirms Decline, the first focus", [[LATER, ENTER]], [{ action: "decline" }]],
    [
      "2 then Enter cancels",
      [
        [LATER, text("2")],
        [LATER + 1, ENTER],
      ],
      [{ action: "cancel" }],
    ],
    [
      "3 then Enter opens it",
      [
        [LATER, text("3")],
        [LATER + 1, ENTER],
      ],
      [{ action: "accept", content: {} }],
    ],
    [
      "↑ stays on Decline, the top: ↑ then, a guard's time later, Enter declines",
      [
        [LATER, key("up")],
        [LATER + GUARD, ENTER],
      ],
      [{ action: "decline" }],
    ],
    [
      "↓ ↓ then Enter at once opens nothing",
      [
        [LATER, key("down")],
        [LATER + 1, key("down")],
        [LATER + 2, ENTER],
      ],
      [],
    ],
    [
      "↓ ↓ then Enter at once opens nothing; a guard's time after that, Enter opens the page",
      [
        [LATER, key("down")],
        [LATER + 1, key("down")],
        [LATER + 2, ENTER],
        [LATER + 2 + GUARD, ENTER],
      ],
      [{ action: "accept", content: {} }],
    ],
    ["Esc cancels at once", [[1001, ESC]], [{ action: "cancel" }]],
    ["a pasted y opens nothing", [[LATER, paste("y")]], []],
  ])("%s", (_name, steps, answers) => {
    expect(press(shown(PAGE), ...steps).answers).toEqual(answers);
  });
});

describe("a form's keys", () => {
  const mode = (state: PromptState) => keyMode(state, { inspecting: false, exitArmed: false, busy: true });

  it("keys typed as it appears go to the prompt; once the guard has passed they fill the first field", () => {
    const early = press(shown(FORM), [1100, text("hello")], [1200, key("tab")], [1300, ENTER]);
    expect(early.state.editor.text).toBe("hello");
    expect(early.answers).toEqual([]);
    const form = early.state.question?.panel;
    expect(form?.kind === "form" && form.engaged).toBe(false);

    const filled = press(shown(FORM), [LATER, text("Ada")]);
    expect(filled.state.editor.text).toBe("");
    const panel = filled.state.question?.panel;
    expect(panel?.kind === "form" ? panel.form.entries[0]?.text.text : undefined).toBe("Ada");
  });

  it("with a draft in the prompt, letters go on into it until Tab starts the form", () => {
    const typing = press(shown(FORM, "half a "), [LATER, text("sentence")]);
    expect(typing.state.editor.text).toBe("half a sentence");
    const started = press(typing.state, [LATER + GUARD, key("tab")], [LATER + GUARD + 1, text("Ada")]);
    expect(started.state.editor.text).toBe("half a sentence");
    const panel = started.state.question?.panel;
    expect(panel?.kind === "form" && panel.engaged).toBe(true);
    expect(panel?.kind === "form" ? panel.form.entries[0]?.text.text : undefined).toBe("Ada");
  });

  it("Enter on the last field goes to the buttons, and only a later Enter accepts; a paste never does", () => {
    const filled = press(
      shown(FORM),
      [LATER, text("Ada")],
      [LATER + 1, ENTER],
      [LATER + 2, text(" ")],
      [LATER + 3, ENTER],
      [LATER + 4, ENTER],
      [LATER + 5, paste("\r\r")],
    );
    expect(filled.answers).toEqual([]);
    expect(mode(filled.state)).toBe("form");
    const accepted = press(filled.state, [LATER + 5 + GUARD, ENTER]);
    expect(accepted.answers).toEqual([{ action: "accept", content: { name: "Ada", agree: true } }]);
  });

  it("Shift+Tab and ↑ go back, Esc cancels at any time", () => {
    const moved = press(
      shown(FORM),
      [LATER, key("tab")],
      [LATER + 1, key("down")],
      [LATER + 2, key("tab", { shift: true })],
      [LATER + 3, key("up")],
      [LATER + 4, text("x")],
    );
    const panel = moved.state.question?.panel;
    expect(panel?.kind === "form" ? [panel.form.focus, panel.form.entries[0]?.text.text] : undefined).toEqual(
      [0, "x"],
    );
    expect(press(shown(FORM), [1001, ESC]).answers).toEqual([{ action: "cancel" }]);
  });
});

describe("question_sync", () => {
  it("keeps a panel while the same question is asked; one asked again after its answer starts over, guarded", () => {
    const asked = press(shown(SAMPLING), [LATER, key("down")]);
    const again = reducePrompt(asked.state, {
      type: "question_sync",
      question: SAMPLING,
      at: LATER + 5,
    }).state;
    expect(again.question).toBe(asked.state.question);
    const answered = press(again, [LATER + 10, text("y")]).state;
    expect(answered.question).toBeUndefined();
    // OpenQuestions takes an answered question off at once; were it asked again, its guard would
    // start again, so no key typed meanwhile answers it.
    const stale = reducePrompt(answered, { type: "question_sync", question: SAMPLING, at: LATER + 20 }).state;
    expect(stale.question).toMatchObject({ id: 1, shownAt: LATER + 20 });
    const next = reducePrompt(stale, { type: "question_sync", question: PAGE, at: LATER + 30 }).state;
    expect(next.question).toMatchObject({ id: 2, shownAt: LATER + 30 });
    expect(
      reducePrompt(next, { type: "question_sync", question: undefined, at: 0 }).state.question,
    ).toBeUndefined();
  });
});

describe("screen_back (the terminal back from the external editor)", () => {
  it("a question that came while the editor was open is guarded from then: y right after is typing", () => {
    const back = reducePrompt(shown(SAMPLING), { type: "screen_back", at: LATER + 5000 }).state;
    expect(back.question).toMatchObject({ id: 1, shownAt: LATER + 5000 });
    const early = press(back, [LATER + 5100, text("y")]);
    expect(early.answers).toEqual([]);
    expect(early.state.editor.text).toBe("y");
    expect(press(back, [LATER + 5000 + GUARD, text("y")]).answers).toEqual([{ approved: true }]);
  });
});
