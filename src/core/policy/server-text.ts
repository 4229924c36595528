import type { SecretRedactor } from "./redact-secrets.js";
import type { TextRedaction } from "./secret-patterns.js";
import { sanitizeForTerminal } from "./sanitize-terminal.js";

/**
 * Text a server sent (a tool result, a resource, a rendered prompt), made safe to show or to give
 * the model: secrets removed, then terminal controls and every character that hides text (tag
 * characters, BiDi and zero-width controls, C0/C1 controls) dropped. A model reads what a person
 * cannot see, so nothing of a server reaches it that a person would not see too.
 */
export async function cleanServerText(
  text: string,
  redactor: SecretRedactor | undefined,
): Promise<TextRedaction> {
  const redacted = redactor ? await redactor.redact(text) : { text, rules: [] };
  return { text: sanitizeForTerminal(redacted.text), rules: redacted.rules };
}

/**
 * The body of an untrusted-data fence (`<tool_output …>`, `<resource …>`) with every spelling of
 * the fence's tag defused, opening or closing, in any case and with spaces (`</TOOL_OUTPUT>`,
 * `</ tool_output>`): the body can neither end its fence early nor open one that claims another
 * server or trust="trusted".
 */
export function defuseFenceTags(body: string, tag: string): string {
  // Every result passes here: most hold no `<` at all, and a pattern is built once per tag.
  if (!body.includes("<")) return body;
  let spellings = FENCE_TAG_SPELLINGS.get(tag);
  if (!spellings) {
    spellings = new RegExp(String.raw`<(?=\s*\/?\s*${tag})`, "gi");
    FENCE_TAG_SPELLINGS.set(tag, spellings);
  }
  return body.replace(spellings, "&lt;");
}

/** Per fence tag, the `<` of each spelling of it (see defuseFenceTags). */
const FENCE_TAG_SPELLINGS = new Map<string, RegExp>();
