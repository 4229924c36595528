import { describe, expect, it } from "vitest";
import { formFields, type FormField } from "../../src/core/person/elicitation-form.js";
import { APPROVAL_GUARD_MS as GUARD } from "../../src/ui/keys/approval-guard.js";
import {
  fieldProblem,
  formKey,
  newForm,
  type FormKey,
  type FormState,
} from "../../src/ui/panels/form-state.js";
import { fieldSummary, visibleFields } from "../../src/ui/panels/question-view.js";

/** The fields of a schema, as the core reads them. */
function fields(properties: Record<string, unknown>, required: string[] = []): FormField[] {
  const form = formFields({ type: "object", properties, required });
  if ("problem" in form) throw new Error(form.problem);
  return form.fields;
}

const FIELDS = fields(
  {
    name: { title: "Name", type: "string" },
    agree: { title: "Agree", type: "boolean" },
    count: { title: "Count", type: "integer", minimum: 1, maximum: 100, default: 42 },
    pet: {
      title: "Pet",
      type: "string",
      enum: ["cat", "dog", "bird"],
      enumNames: ["Cats", "Dogs", "Birds"],
      default: "cat",
    },
    tools: {
      title: "Tools",
      type: "array",
      items: { type: "string", enum: ["saw", "drill", "file"] },
      default: ["saw"],
    },
  },
  ["name"],
);

/** What each field shows, and each field's problem. */
const summaries = (form: FormState): string[] =>
  form.fields.map((field, index) => {
    const entry = form.entries[index];
    return entry ? fieldSummary(field, entry) : "";
  });
const problems = (form: FormState): Array<string | undefined> =>
  form.fields.map((field, index) => {
    const entry = form.entries[index];
    return entry ? fieldProblem(field, entry) : "no entry";
  });

/** A form of one field. */
function single(schema: Record<string, unknown>, required = false): FormState {
  return newForm(fields({ f: { title: "F", ...schema } }, required ? ["f"] : []), 0);
}

/** Keys applied in order, each `at` ms after the last; the form, or the answer it gave. */
function keys(form: FormState, ...steps: Array<FormKey | [gap: number, key: FormKey]>) {
  let current = form;
  let at = form.lastKeyAt;
  for (const step of steps) {
    const [gap, key] = Array.isArray(step) ? step : [10, step];
    at += gap;
    const result = formKey(current, key, at);
    if ("answer" in result) return { answer: result.answer, form: current };
    current = result.form;
  }
  return { answer: undefined, form: current };
}

const text = (value: string): FormKey => ({ type: "text", text: value });
const TAB: FormKey = { type: "move", direction: 1 };
const BACK: FormKey = { type: "move", direction: -1 };
const ENTER: FormKey = { type: "enter" };
const edit = (name: "left" | "right" | "backspace"): FormKey => ({ type: "edit", edit: name });

describe("an elicitation form being filled in", () => {
  it("starts with each field's default, so what the person sees is what is sent", () => {
    const form = newForm(FIELDS, 0);
    expect(summaries(form)).toEqual(["(empty)", "[ ] not set", "42", "Cats", "saw"]);
    expect(form.entries[2]?.text).toEqual({ text: "42", cursor: 2 });
  });

  it("types into text fields, toggles yes/no, picks a choice by arrow or number, toggles a multi-select", () => {
    const { form } = keys(
      newForm(FIELDS, 0),
      text("Ada"),
      TAB,
      text(" "),
      TAB,
      edit("backspace"),
      text("7"),
      TAB,
      edit("right"),
      edit("right"),
      TAB,
      text("3"),
      edit("left"),
      edit("left"),
      text(" "),
    );
    expect(summaries(form)).toEqual(["Ada", "[x] yes", "47", "Birds", "file"]);
  });

  it.each<[string, FormKey[], string]>([
    ["n sets a yes/no field to no", [TAB, text("y"), text("n")], "[ ] no"],
    ["Backspace unsets a yes/no field", [TAB, text("y"), edit("backspace")], "[ ] not set"],
    ["a paste never toggles a yes/no field", [TAB, { type: "paste", text: "y " }], "[ ] not set"],
  ])("%s", (_name, steps, shown) => {
    const { form } = keys(newForm(FIELDS, 0), ...steps);
    expect(summaries(form)[1]).toBe(shown);
  });

  it("takes a paste into a text field as one line", () => {
    const { form } = keys(newForm(FIELDS, 0), { type: "paste", text: "Ada\nLovelace" });
    expect(form.entries[0]?.text.text).toBe("Ada Lovelace");
  });

  it("Enter goes to the next field, and on the last one to the buttons; Accept then waits out the guard", () => {
    const typed = keys(newForm(FIELDS, 0), text("Ada"), ENTER, ENTER, ENTER, ENTER, ENTER);
    expect(typed.answer).toBeUndefined();
    expect(typed.form.focus).toBe(FIELDS.length);
    // Enter right after the last key is the same burst of keys: it sends nothing, and holds the guard up.
    const hurried = keys(typed.form, ENTER, [GUARD - 1, ENTER]);
    expect(hurried.answer).toBeUndefined();
    const accepted = keys(hurried.form, [GUARD, ENTER]);
    expect(accepted.answer).toEqual({
      action: "accept",
      content: { name: "Ada", count: 42, pet: "cat", tools: ["saw"] },
    });
  });

  it("does not accept a form with a problem: the first such field is focused and every problem shown", () => {
    const atButtons = keys(
      newForm(FIELDS, 0),
      TAB,
      TAB,
      edit("backspace"),
      edit("backspace"),
      text("500"),
      TAB,
      TAB,
      TAB,
    );
    const tried = keys(atButtons.form, [GUARD, ENTER]);
    expect(tried.answer).toBeUndefined();
    expect(tried.form.focus).toBe(0);
    expect(problems(tried.form)).toEqual([
      "Name is required",
      undefined,
      "Count must be at most 100",
      undefined,
      undefined,
    ]);
    expect(tried.form.entries.every((entry) => entry.touched)).toBe(true);
  });

  it("Decline and Cancel answer at once; ←/→ choose the button", () => {
    const atButtons = keys(newForm(FIELDS, 0), TAB, TAB, TAB, TAB, TAB).form;
    expect(keys(atButtons, edit("right"), ENTER).answer).toEqual({ action: "decline" });
    expect(keys(atButtons, edit("right"), edit("right"), ENTER).answer).toEqual({ action: "cancel" });
    expect(keys(atButtons, edit("right"), edit("left"), BACK).form.focus).toBe(FIELDS.length - 1);
  });

  it.each<[string, Record<string, unknown>, string, string | undefined]>([
    ["a number that is not one", { type: "number" }, "abc", "F must be a number"],
    ["a whole number with a fraction", { type: "integer" }, "1.5", "F must be a whole number"],
    ["an email address without @", { type: "string", format: "email" }, "ada", "F must be an email address"],
    ["a date in another form", { type: "string", format: "date" }, "1 May", "F must be a date (YYYY-MM-DD)"],
    ["text too short", { type: "string", minLength: 3 }, "ab", "F needs at least 3 characters"],
    ["an empty optional field", { type: "string" }, "", undefined],
  ])("shows the problem of %s", (_name, schema, typed, problem) => {
    expect(problems(keys(single(schema), text(typed)).form)).toEqual([problem]);
  });

  it("an emptied field with a default is fine: the core sends the default", () => {
    const form = keys(single({ type: "string", default: "dark and stormy" }, true), {
      type: "edit",
      edit: "deleteToLineStart",
    }).form;
    expect(problems(form)).toEqual([undefined]);
    expect(summaries(form)).toEqual(["(empty: the default, dark and stormy, is sent)"]);
  });
});

describe("which fields fit", () => {
  it.each<[string, number[], number, number, { start: number; end: number }]>([
    ["all of them when they fit", [1, 1, 1], 0, 10, { start: 0, end: 3 }],
    ["the focused one and its neighbours", [1, 1, 1, 1, 1], 2, 3, { start: 1, end: 4 }],
    ["more below at the top", [1, 1, 1, 1, 1], 0, 3, { start: 0, end: 3 }],
    ["more above at the bottom (the buttons)", [1, 1, 1, 1, 1], 5, 2, { start: 3, end: 5 }],
    ["the focused one even when it alone is too tall", [1, 4, 1], 1, 2, { start: 1, end: 2 }],
    ["none for no fields", [], 0, 5, { start: 0, end: 0 }],
  ])("%s", (_name, heights, focus, budget, range) => {
    expect(visibleFields(heights, focus, budget)).toEqual(range);
  });
});
