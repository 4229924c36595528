import type { FormField } from "../core/person/elicitation-form.js";
import type { SamplingQuestion } from "../core/person/sampling.js";
import { fieldProblem, type FieldEntry, type FormState } from "./form-state.js";

/**
 * A sampling request as lines: the system prompt, then each message by role, later lines of a
 * message indented under its first. The texts were sanitized by the core.
 */
export function samplingLines(question: SamplingQuestion): string[] {
  const lines: string[] = [];
  // A loop, not push(...lines): a message of 150,000 lines would overflow the call stack.
  const add = (head: string, text: string): void => {
    text.split("\n").forEach((line, index) => {
      lines.push(index === 0 ? `${head}: ${line}` : `  ${line}`);
    });
  };
  if (question.systemPrompt !== undefined) add("system", question.systemPrompt);
  for (const message of question.messages) add(message.role, message.text);
  return lines;
}

/** What the model is asked for, in one line: who answers, how long at most, at what temperature. */
export function samplingTerms(question: SamplingQuestion): string {
  return [
    `${question.model} answers`,
    `at most ${question.maxTokens} tokens`,
    ...(question.temperature === undefined ? [] : [`temperature ${question.temperature}`]),
  ].join(" · ");
}

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

/** Rows a field takes: its line, and when focused its description and its choices; a problem adds one. */
export function fieldRows(form: FormState, index: number): number {
  const field = form.fields[index];
  const entry = form.entries[index];
  if (!field || !entry) return 0;
  const focused = index === form.focus;
  const description = focused && field.description !== undefined ? 1 : 0;
  const choices = focused && (field.kind === "enum" || field.kind === "multi") ? 1 : 0;
  return 1 + description + choices + (shownProblem(field, entry) === undefined ? 0 : 1);
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
