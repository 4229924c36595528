import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { ElicitationParams } from "./server-request-handlers.js";
import { openableUrl } from "../policy/openable-url.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import {
  applyDefaults,
  contentProblem,
  formFields,
  type FormContent,
  type FormField,
} from "./elicitation-form.js";

/** A server's question for the person: a form to fill in, or a page to open. */
export type ElicitationQuestion =
  | { mode: "form"; server: string; message: string; fields: FormField[] }
  | {
      mode: "url";
      server: string;
      message: string;
      /** The address as the server sent it, sanitized for display. */
      url: string;
      /** The host the page is on, the part a person must check (punycode as it is, never decoded). */
      domain: string;
    };

/** How the person answered: the values typed (before defaults), a decline, or a cancel. */
export type ElicitationAnswer =
  { action: "accept"; content: FormContent } | { action: "decline" } | { action: "cancel" };

/** The question a request asks, or why mcpterm cannot ask it (answered as a decline). */
export function elicitationQuestion(
  server: string,
  params: ElicitationParams,
  clean: (text: string) => string,
): ElicitationQuestion | { problem: string } {
  const message = sanitizeForTerminal(clean(params.message)).slice(0, 4000);
  if (params.mode === "url") {
    if (params.url.length > MAX_URL)
      return { problem: `the address it asks to open is over ${MAX_URL} characters long` };
    const url = openableUrl(params.url);
    if (!url) return { problem: `the address it asks to open is not an http(s) URL` };
    // https://accounts.example.com@evil.example/ names one host and goes to another.
    if (url.username || url.password)
      return { problem: "the address it asks to open has a user name in it, which hides where it goes" };
    return { mode: "url", server, message, url: sanitizeForTerminal(clean(url.href)), domain: url.host };
  }
  const form = formFields(params.requestedSchema);
  if ("problem" in form) return form;
  // What the form shows is the server's text: without the secrets it may quote, like the message.
  const fields = form.fields.map((field) => ({
    ...field,
    label: clean(field.label),
    description: field.description === undefined ? undefined : clean(field.description),
    options: field.options.map((option) => ({ ...option, label: clean(option.label) })),
    // A text default is the server's text too, shown in the field before anything is typed.
    default: typeof field.default === "string" ? sanitizeForTerminal(clean(field.default)) : field.default,
  }));
  return { mode: "form", server, message, fields };
}

/** Longer addresses are refused: no sign-in page needs one, and a long one hides its domain. */
const MAX_URL = 2048;

/**
 * The result sent back for the person's answer to a form: defaults applied as the spec's
 * applyDefaults describes, then checked against the form, so a server never gets content its
 * own schema rejects (an answer that does not fit is a problem, for the person to fix).
 */
export function formResult(
  fields: readonly FormField[],
  answer: ElicitationAnswer,
): { ok: true; result: ElicitResult } | { ok: false; problem: string } {
  if (answer.action !== "accept") return { ok: true, result: { action: answer.action } };
  const content = applyDefaults(fields, answer.content);
  const problem = contentProblem(fields, content);
  return problem ? { ok: false, problem } : { ok: true, result: { action: "accept", content } };
}
