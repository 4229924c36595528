import { sanitizeForTerminal } from "../../core/policy/sanitize-terminal.js";
import type { ElicitationAnswer } from "../../core/person/elicitation.js";
import {
  applyDefaults,
  contentProblem,
  parseFieldInput,
  type FieldValue,
  type FormContent,
  type FormField,
} from "../../core/person/elicitation-form.js";
import { guardPassed } from "../keys/approval-guard.js";
import { EDITS } from "../keys/editor-edits.js";
import { emptyEditor, insertText, type EditorState } from "../keys/input-editor.js";
import type { EditName } from "../keys/keymap.js";

/** What the person has put into one field so far. */
export interface FieldEntry {
  /** What is typed, for text, number and integer fields. */
  text: EditorState;
  /** A yes/no field's value; undefined: not set. */
  flag: boolean | undefined;
  /** The values chosen: at most one for a single choice, any for a multi-select. */
  chosen: readonly string[];
  /** The option under the cursor, for choice fields. */
  cursor: number;
  /** Left once, or the person tried to accept: its problem is shown. */
  touched: boolean;
}

export const FORM_BUTTONS = ["accept", "decline", "cancel"] as const;

/** An elicitation form being filled in. */
export interface FormState {
  fields: readonly FormField[];
  entries: readonly FieldEntry[];
  /** The focused field; `fields.length` is the row of buttons. */
  focus: number;
  /** Index into FORM_BUTTONS of the focused button. */
  button: number;
  /** When the person last pressed a key in the form: Accept waits out the guard after it. */
  lastKeyAt: number;
}

/** A key the form takes once the person is filling it in. */
export type FormKey =
  | { type: "text"; text: string }
  | { type: "paste"; text: string }
  | { type: "edit"; edit: EditName }
  | { type: "move"; direction: -1 | 1 }
  | { type: "enter" };

/** A new form, each field showing its default: what the person sees is what is sent. */
export function newForm(fields: readonly FormField[], at: number): FormState {
  return { fields, entries: fields.map(newEntry), focus: 0, button: 0, lastKeyAt: at };
}

function newEntry(field: FormField): FieldEntry {
  const fallback = field.default;
  const text = typeof fallback === "string" || typeof fallback === "number" ? String(fallback) : "";
  const chosen = Array.isArray(fallback) ? fallback : typeof fallback === "string" ? [fallback] : [];
  const first = field.options.findIndex((option) => option.value === chosen[0]);
  return {
    text: isTyped(field) ? { text, cursor: text.length } : emptyEditor,
    flag: typeof fallback === "boolean" ? fallback : undefined,
    chosen: field.kind === "enum" || field.kind === "multi" ? chosen : [],
    cursor: Math.max(0, first),
    touched: false,
  };
}

/** Fields whose value is typed as text. */
export function isTyped(field: FormField): boolean {
  return field.kind === "string" || field.kind === "number" || field.kind === "integer";
}

/** The value a field holds (undefined: left out), or why its text means nothing for it. */
function fieldValue(
  field: FormField,
  entry: FieldEntry,
): { value: FieldValue | undefined } | { problem: string } {
  switch (field.kind) {
    case "string":
    case "number":
    case "integer":
      return parseFieldInput(field, entry.text.text);
    case "boolean":
      return { value: entry.flag };
    case "enum":
      return { value: entry.chosen[0] };
    case "multi":
      return { value: entry.chosen.length > 0 ? [...entry.chosen] : undefined };
  }
}

/** What is wrong with one field as filled in, checked as the core will check it (defaults applied). */
export function fieldProblem(field: FormField, entry: FieldEntry): string | undefined {
  const parsed = fieldValue(field, entry);
  if ("problem" in parsed) return parsed.problem;
  const content: FormContent = parsed.value === undefined ? {} : { [field.name]: parsed.value };
  return contentProblem([field], applyDefaults([field], content));
}

/** The values filled in (defaults are the core's to apply), or the first field with a problem. */
function formContent(form: FormState): { content: FormContent } | { index: number } {
  const content: FormContent = {};
  for (const [index, field] of form.fields.entries()) {
    const entry = form.entries[index];
    if (!entry || fieldProblem(field, entry) !== undefined) return { index };
    const parsed = fieldValue(field, entry);
    if ("value" in parsed && parsed.value !== undefined) content[field.name] = parsed.value;
  }
  return { content };
}

/**
 * Pure: the form after one key, or the answer it gave. Accept needs the guard to have passed since
 * the last key (so Enter, Enter on the last field never sends) and every field to be right;
 * otherwise the first field with a problem is focused and every problem shown.
 */
export function formKey(
  form: FormState,
  key: FormKey,
  at: number,
): { form: FormState } | { answer: ElicitationAnswer } {
  const next = { ...form, lastKeyAt: at };
  const field = form.fields[form.focus];
  switch (key.type) {
    case "move":
      return { form: moveFocus(next, key.direction) };
    case "enter": {
      if (field) return { form: moveFocus(next, 1) };
      const button = FORM_BUTTONS[form.button] ?? "cancel";
      if (button !== "accept") return { answer: { action: button } };
      if (!guardPassed({ shownAt: form.lastKeyAt, lastTypedAt: undefined }, at)) return { form: next };
      const filled = formContent(form);
      if ("content" in filled) return { answer: { action: "accept", content: filled.content } };
      return {
        form: {
          ...next,
          focus: filled.index,
          entries: form.entries.map((entry) => ({ ...entry, touched: true })),
        },
      };
    }
    case "text":
      return { form: field ? changeEntry(next, (entry) => typedInto(field, entry, key.text)) : next };
    case "paste":
      // A paste is text: it goes into a text field, and never toggles, picks or presses anything.
      if (!field || !isTyped(field)) return { form: next };
      return { form: changeEntry(next, (entry) => typedInto(field, entry, key.text)) };
    case "edit":
      if (!field) return { form: { ...next, button: moveButton(form.button, key.edit) } };
      return { form: changeEntry(next, (entry) => editedIn(field, entry, key.edit)) };
  }
}

function moveFocus(form: FormState, direction: -1 | 1): FormState {
  const focus = Math.min(Math.max(form.focus + direction, 0), form.fields.length);
  if (focus === form.focus) return form;
  // A field is checked once the person has left it.
  return {
    ...form,
    focus,
    entries: form.entries.map((entry, index) => (index === form.focus ? { ...entry, touched: true } : entry)),
  };
}

function moveButton(button: number, edit: EditName): number {
  if (edit === "left") return Math.max(0, button - 1);
  if (edit === "right") return Math.min(FORM_BUTTONS.length - 1, button + 1);
  return button;
}

function changeEntry(form: FormState, change: (entry: FieldEntry) => FieldEntry): FormState {
  return {
    ...form,
    entries: form.entries.map((entry, index) => (index === form.focus ? change(entry) : entry)),
  };
}

/** Typed or pasted text: into a text field as one line; for the others, each character is a key. */
function typedInto(field: FormField, entry: FieldEntry, typed: string): FieldEntry {
  if (isTyped(field))
    return { ...entry, text: insertText(entry.text, sanitizeForTerminal(typed).replace(/[\r\n\t]/g, " ")) };
  let result = entry;
  for (const character of typed) result = choiceKey(field, result, character);
  return result;
}

/** Space toggles (a yes/no field, a multi-select's option under the cursor); y/n answer; a digit picks. */
function choiceKey(field: FormField, entry: FieldEntry, character: string): FieldEntry {
  if (field.kind === "boolean") {
    if (character === " ") return { ...entry, flag: !(entry.flag ?? false) };
    if (/^[yY]$/.test(character)) return { ...entry, flag: true };
    if (/^[nN]$/.test(character)) return { ...entry, flag: false };
    return entry;
  }
  const picked = /^[1-9]$/.test(character) ? Number(character) - 1 : character === " " ? entry.cursor : -1;
  const option = field.options[picked];
  if (!option) return entry;
  if (field.kind === "enum") return { ...entry, cursor: picked, chosen: [option.value] };
  const chosen = entry.chosen.includes(option.value)
    ? entry.chosen.filter((value) => value !== option.value)
    : field.options
        .map((each) => each.value)
        .filter((value) => value === option.value || entry.chosen.includes(value));
  return { ...entry, cursor: picked, chosen };
}

/** Editing keys: they edit a text field; ←/→ move through choices; Backspace or Delete clears a choice. */
function editedIn(field: FormField, entry: FieldEntry, edit: EditName): FieldEntry {
  if (isTyped(field)) return { ...entry, text: EDITS[edit](entry.text) };
  const clears = edit === "backspace" || edit === "deleteForward";
  if (field.kind === "boolean") return clears ? { ...entry, flag: undefined } : entry;
  if (clears) return field.kind === "enum" ? { ...entry, chosen: [] } : entry;
  const step = edit === "left" ? -1 : edit === "right" ? 1 : 0;
  if (step === 0) return entry;
  const cursor = Math.min(Math.max(entry.cursor + step, 0), field.options.length - 1);
  const option = field.options[cursor];
  if (field.kind === "enum" && option) return { ...entry, cursor, chosen: [option.value] };
  return { ...entry, cursor };
}
