import type { FormField } from "../../core/person/elicitation-form.js";
import { displayWidth } from "../../core/text/index.js";
import { fieldProblem, isTyped, type FieldEntry, type FormState } from "./form-state.js";

/** Columns a field's description, choices and problem are indented by, and its value when stacked. */
export const FIELD_INDENT = 4;

/** A field's value as shown when it is not being edited. */
export function fieldSummary(field: FormField, entry: FieldEntry): string {
  switch (field.kind) {
    case "string":
    case "number":
    case "integer":
      if (entry.text.text !== "") return entry.text.text;
      return field.default === undefined
        ? "(empty)"
        : `(empty: the default, ${String(field.default)}, is sent)`;
    case "boolean":
      return entry.flag === undefined ? "[ ] not set" : entry.flag ? "[x] yes" : "[ ] no";
    case "enum":
    case "multi": {
      const labels = field.options
        .filter((option) => entry.chosen.includes(option.value))
        .map((option) => option.label);
      return labels.length > 0 ? labels.join(", ") : "(none)";
    }
  }
}

/** What the keys do on a field of this kind. */
export function fieldKeys(field: FormField): string {
  switch (field.kind) {
    case "string":
    case "number":
    case "integer":
      return "type the value";
    case "boolean":
      return "Space toggles · y yes · n no";
    case "enum":
      return "←/→ or its number chooses";
    case "multi":
      return "←/→ move · Space or its number toggles";
  }
}

/** The problem to show under a field: once the person has left it, or tried to accept. */
export function shownProblem(field: FormField, entry: FieldEntry): string | undefined {
  return entry.touched ? fieldProblem(field, entry) : undefined;
}

/** A field's label as its line starts: the focus mark, the label, `*` when required. */
export function fieldLabel(field: FormField, focused: boolean): string {
  return `${focused ? "› " : "  "}${field.label}${field.required ? " *" : ""}:`;
}

/** The value as drawn: the text being typed (with room for the cursor) or the summary. */
function shownValue(field: FormField, entry: FieldEntry, focused: boolean): string {
  return focused && isTyped(field) ? `${entry.text.text} ` : fieldSummary(field, entry);
}

/**
 * Pure: whether the value goes on a line of its own under the label, because label and value
 * do not fit `width` side by side; then it wraps by words under the indent instead of being
 * broken into the few columns the label leaves.
 */
export function valueBelowLabel(
  field: FormField,
  entry: FieldEntry,
  focused: boolean,
  width: number,
): boolean {
  return (
    displayWidth(fieldLabel(field, focused)) + 1 + displayWidth(shownValue(field, entry, focused)) > width
  );
}

/** Rows `text` takes wrapped into `width` columns (about: words may wrap a little earlier). */
function rowsOf(text: string, width: number): number {
  return Math.max(1, Math.ceil(displayWidth(text) / Math.max(1, width)));
}

/**
 * Rows a field takes in `width` columns: its label and value, and when focused its description
 * and its choices; a problem adds its own.
 */
export function fieldRows(form: FormState, index: number, width: number): number {
  const field = form.fields[index];
  const entry = form.entries[index];
  if (!field || !entry) return 0;
  const focused = index === form.focus;
  const inner = width - FIELD_INDENT;
  const value = valueBelowLabel(field, entry, focused, width)
    ? rowsOf(fieldLabel(field, focused), width) +
      (focused && isTyped(field) ? 1 : rowsOf(fieldSummary(field, entry), inner))
    : 1;
  const description = focused && field.description !== undefined ? rowsOf(field.description, inner) : 0;
  const choices =
    focused && (field.kind === "enum" || field.kind === "multi")
      ? rowsOf(field.options.map((option, number) => `( ) ${number + 1} ${option.label}`).join("  "), inner)
      : 0;
  const problem = shownProblem(field, entry);
  return value + description + choices + (problem === undefined ? 0 : rowsOf(`✗ ${problem}`, inner));
}

/**
 * Pure: the fields to draw, [start, end), around the focused one, within `budget` rows: the
 * focused field always, then fields below and above it in turn while they fit.
 */
export function visibleFields(
  heights: readonly number[],
  focus: number,
  budget: number,
): { start: number; end: number } {
  if (heights.length === 0) return { start: 0, end: 0 };
  const center = Math.min(Math.max(focus, 0), heights.length - 1);
  let start = center;
  let end = center + 1;
  let used = heights[center] ?? 0;
  for (let grew = true; grew;) {
    grew = false;
    const below = heights[end];
    if (below !== undefined && used + below <= budget) {
      used += below;
      end += 1;
      grew = true;
    }
    const above = heights[start - 1];
    if (above !== undefined && used + above <= budget) {
      used += above;
      start -= 1;
      grew = true;
    }
  }
  return { start, end };
}
