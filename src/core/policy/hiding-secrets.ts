import { sanitizeForTerminal } from "./sanitize-terminal.js";
import type { TextRedaction } from "./secret-patterns.js";

/** Printable ASCII, tabs and line breaks: nothing in it can hide a character from the rules. */
const PLAIN = /^[\t\n\u0020-\u007e]*$/;

/**
 * A secret split by what draws as nothing (`sk-pr⟨U+200B⟩oj-…`, a soft hyphen, a BiDi mark, a
 * tag character), by a control or by an escape sequence passes rules that read the text as it
 * is, and comes out whole where those are taken out: on a terminal (sanitizeForTerminal) and in
 * what the model is handed. So a text holding any is read again as it is read there; where the
 * rules find a secret in that form, the text is given in that form, redacted, and what hid the
 * secret goes with it (the trace and `--json` keep such characters otherwise). `redact` reads
 * the bare text; `direct` is what reading the text as it is gave.
 */
export function throughHiding(direct: TextRedaction, redact: (bare: string) => TextRedaction): TextRedaction;
export function throughHiding(
  direct: TextRedaction,
  redact: (bare: string) => Promise<TextRedaction>,
): Promise<TextRedaction>;
export function throughHiding(
  direct: TextRedaction,
  redact: (bare: string) => TextRedaction | Promise<TextRedaction>,
): TextRedaction | Promise<TextRedaction> {
  const bare = bareText(direct.text);
  if (bare === undefined) return direct;
  const joined = (again: TextRedaction): TextRedaction =>
    again.rules.length === 0 ? direct : { text: again.text, rules: [...direct.rules, ...again.rules] };
  const again = redact(bare);
  return again instanceof Promise ? again.then(joined) : joined(again);
}

/** The text as a terminal shows it, or undefined when that is the text itself. */
export function bareText(text: string): string | undefined {
  if (PLAIN.test(text)) return undefined;
  const bare = sanitizeForTerminal(text);
  return bare === text ? undefined : bare;
}
