import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { isSecretName } from "../policy/secret-patterns.js";

/** One choice of an enum field: the value sent back, and the label shown. */
export interface FieldOption {
  value: string;
  label: string;
}

/**
 * One field of an elicitation form, as the MCP spec allows them: flat primitives only (string
 * with an optional format, number, integer, boolean, single- or multi-select enum).
 */
export interface FormField {
  name: string;
  /** The label shown: the schema's title, else the property name. Sanitized. */
  label: string;
  description: string | undefined;
  required: boolean;
  kind: "string" | "number" | "integer" | "boolean" | "enum" | "multi";
  options: FieldOption[];
  format: string | undefined;
  minimum: number | undefined;
  maximum: number | undefined;
  minLength: number | undefined;
  maxLength: number | undefined;
  default: FieldValue | undefined;
  /**
   * The field asks for what looks like a secret (a password, token, key). The MCP spec forbids
   * asking for those in a form; the person is warned before typing one.
   */
  asksForSecret: boolean;
}

export type FieldValue = string | number | boolean | string[];
export type FormContent = Record<string, FieldValue>;

/** Most fields one form may have; a schema past it is a request no person can answer. */
export const MAX_FORM_FIELDS = 50;
const MAX_TEXT = 500;

/**
 * The form a requestedSchema describes, or why it cannot be shown (nested objects, unknown
 * types, too many fields). The labels and descriptions are sanitized for the terminal.
 */
export function formFields(schema: unknown): { fields: FormField[] } | { problem: string } {
  if (!isRecord(schema) || schema.type !== "object" || !isRecord(schema.properties))
    return { problem: "its requestedSchema is not an object schema with properties" };
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name) => typeof name === "string")
    : [];
  const entries = Object.entries(schema.properties);
  if (entries.length > MAX_FORM_FIELDS)
    return { problem: `its form has ${entries.length} fields; mcpterm shows at most ${MAX_FORM_FIELDS}` };
  const fields: FormField[] = [];
  for (const [name, property] of entries) {
    const field = formField(name, property, required.includes(name));
    if (typeof field === "string") return { problem: `its field ${JSON.stringify(clip(name))} ${field}` };
    fields.push(field);
  }
  return { fields };
}

function formField(name: string, property: unknown, required: boolean): FormField | string {
  if (!isRecord(property)) return "is not a schema";
  const title = text(property.title);
  const base = {
    name,
    asksForSecret:
      isSecretName(name, "argument") ||
      (title !== undefined && isSecretName(title.replace(/\s+/g, "_"), "argument")),
    label: clip(title ?? name),
    description: optionalClip(text(property.description)),
    required,
    options: [] as FieldOption[],
    format: text(property.format),
    minimum: number(property.minimum),
    maximum: number(property.maximum),
    minLength: number(property.minLength),
    maxLength: number(property.maxLength),
  };
  const type = property.type;
  if (type === "string") {
    const options = unique(singleOptions(property));
    if (options) return { ...base, kind: "enum", options, default: enumDefault(property.default, options) };
    return {
      ...base,
      kind: "string",
      default: typeof property.default === "string" ? property.default : undefined,
    };
  }
  if (type === "number" || type === "integer") {
    const fallback = typeof property.default === "number" ? property.default : undefined;
    return { ...base, kind: type, default: fallback };
  }
  if (type === "boolean")
    return {
      ...base,
      kind: "boolean",
      default: typeof property.default === "boolean" ? property.default : undefined,
    };
  if (type === "array" && isRecord(property.items)) {
    const options = unique(multiOptions(property.items));
    if (!options) return "is an array of something other than choices";
    const chosen = Array.isArray(property.default)
      ? property.default.filter((value): value is string => options.some((option) => option.value === value))
      : undefined;
    return {
      ...base,
      kind: "multi",
      options,
      minimum: number(property.minItems),
      maximum: number(property.maxItems),
      default: chosen,
    };
  }
  return `has type ${JSON.stringify(type)}, which a form cannot ask for`;
}

/** Each value once: a server that lists a choice twice gets it shown once. */
function unique(options: FieldOption[] | undefined): FieldOption[] | undefined {
  if (!options) return undefined;
  const seen = new Set<string>();
  return options.filter((option) => !seen.has(option.value) && seen.add(option.value));
}

function singleOptions(property: Record<string, unknown>): FieldOption[] | undefined {
  if (Array.isArray(property.oneOf)) return constOptions(property.oneOf);
  if (!Array.isArray(property.enum)) return undefined;
  const names = Array.isArray(property.enumNames) ? property.enumNames : [];
  return property.enum
    .filter((value): value is string => typeof value === "string")
    .map((value, index) => ({ value, label: clip(text(names[index]) ?? value) }));
}

function multiOptions(items: Record<string, unknown>): FieldOption[] | undefined {
  if (Array.isArray(items.anyOf)) return constOptions(items.anyOf);
  if (Array.isArray(items.enum))
    return items.enum
      .filter((value): value is string => typeof value === "string")
      .map((value) => ({ value, label: clip(value) }));
  return undefined;
}

function constOptions(choices: unknown[]): FieldOption[] {
  return choices
    .filter(isRecord)
    .flatMap((choice) =>
      typeof choice.const === "string"
        ? [{ value: choice.const, label: clip(text(choice.title) ?? choice.const) }]
        : [],
    );
}

function enumDefault(value: unknown, options: readonly FieldOption[]): string | undefined {
  return typeof value === "string" && options.some((option) => option.value === value) ? value : undefined;
}

/** The spec's applyDefaults: every field the answer leaves out that has a default gets it. */
export function applyDefaults(fields: readonly FormField[], content: FormContent): FormContent {
  const filled: FormContent = { ...content };
  for (const field of fields)
    if (ownValue(filled, field.name) === undefined && field.default !== undefined)
      filled[field.name] = field.default;
  return filled;
}

/** Why `content` does not answer the form (the first problem), or undefined when it does. */
export function contentProblem(fields: readonly FormField[], content: FormContent): string | undefined {
  for (const field of fields) {
    const value = ownValue(content, field.name);
    if (value === undefined) {
      if (field.required) return `${field.label} is required`;
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) return `${field.label} ${problem}`;
  }
  return undefined;
}

function valueProblem(field: FormField, value: FieldValue): string | undefined {
  switch (field.kind) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be yes or no";
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (field.kind === "integer" && !Number.isInteger(value)) return "must be a whole number";
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
    }
    case "enum":
      return typeof value === "string" && field.options.some((option) => option.value === value)
        ? undefined
        : "must be one of the choices";
    case "multi": {
      if (
        !Array.isArray(value) ||
        !value.every((item) => field.options.some((option) => option.value === item))
      )
        return "must be among the choices";
      if (field.minimum !== undefined && value.length < field.minimum)
        return `needs at least ${field.minimum} chosen`;
      if (field.maximum !== undefined && value.length > field.maximum)
        return `takes at most ${field.maximum}`;
      return undefined;
    }
    case "string":
      return typeof value === "string" ? stringProblem(field, value) : "must be text";
  }
}

function stringProblem(field: FormField, value: string): string | undefined {
  // JSON Schema counts characters (code points), not UTF-16 units.
  let length = 0;
  for (const _ of value) length += 1;
  if (field.minLength !== undefined && length < field.minLength)
    return `needs at least ${field.minLength} characters`;
  if (field.maxLength !== undefined && length > field.maxLength)
    return `takes at most ${field.maxLength} characters`;
  if (field.format === "email" && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value))
    return "must be an email address";
  if (field.format === "uri" && !URL.canParse(value)) return "must be a URL";
  if (field.format === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return "must be a date (YYYY-MM-DD)";
  if (field.format === "date-time" && Number.isNaN(Date.parse(value))) return "must be a date and time";
  return undefined;
}

/**
 * What the person typed for a field, as the value it stands for: numbers parsed, yes/no for
 * booleans, a choice by its number or value, several choices separated by commas. Returns the
 * problem in words when the text means nothing for the field; empty text leaves the field out.
 */
export function parseFieldInput(
  field: FormField,
  typed: string,
): { value: FieldValue | undefined } | { problem: string } {
  const input = typed.trim();
  if (input === "") return { value: undefined };
  switch (field.kind) {
    case "string":
      return { value: typed };
    case "number":
    case "integer": {
      const value = Number(input);
      return Number.isFinite(value) ? { value } : { problem: `${field.label} must be a number` };
    }
    case "boolean":
      if (/^(y|yes|true|1|on)$/i.test(input)) return { value: true };
      if (/^(n|no|false|0|off)$/i.test(input)) return { value: false };
      return { problem: `${field.label} takes yes or no` };
    case "enum": {
      const option = pickOption(field.options, input);
      return option
        ? { value: option.value }
        : { problem: `${field.label} must be one of: ${optionList(field)}` };
    }
    case "multi": {
      const values: string[] = [];
      for (const part of input
        .split(",")
        .map((piece) => piece.trim())
        .filter(Boolean)) {
        const option = pickOption(field.options, part);
        if (!option) return { problem: `${JSON.stringify(part)} is not among: ${optionList(field)}` };
        if (!values.includes(option.value)) values.push(option.value);
      }
      return { value: values };
    }
  }
}

function pickOption(options: readonly FieldOption[], input: string): FieldOption | undefined {
  const index = /^\d+$/.test(input) ? Number(input) - 1 : -1;
  return (
    options[index] ??
    options.find((option) => option.value === input || option.label.toLowerCase() === input.toLowerCase())
  );
}

function optionList(field: FormField): string {
  return field.options.map((option, index) => `${index + 1} ${option.label}`).join(", ");
}

/** A field's answer; a field named "constructor" or "toString" must not find Object's own. */
function ownValue(content: FormContent, name: string): FieldValue | undefined {
  return Object.hasOwn(content, name) ? content[name] : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function number(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function clip(value: string): string {
  const clean = sanitizeForTerminal(value);
  return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT)}…` : clean;
}

function optionalClip(value: string | undefined): string | undefined {
  return value === undefined ? undefined : clip(value);
}
