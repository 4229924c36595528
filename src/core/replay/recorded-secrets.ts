import { redactDeep } from "../policy/redact-deep.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";
import { redactedLine } from "../policy/redacted-json.js";
import { REDACTED } from "../policy/secret-patterns.js";

/**
 * A value as a trace would store it: the full rule set on every string (as tool results are
 * redacted before they are recorded), then the pass over the serialized line the recorder makes.
 * Both sides of a comparison go through it, so a secret is `[REDACTED]` on both or on neither.
 */
export async function redactLikeTrace(value: unknown, redactor: SecretRedactor): Promise<unknown> {
  const strings: string[] = [];
  redactDeep(value, (text) => {
    strings.push(text);
    return text;
  });
  const redacted = await Promise.all(strings.map(async (text) => (await redactor.redact(text)).text));
  let index = 0;
  const each = redactDeep(value, () => redacted[index++] ?? "");
  return (JSON.parse(redactedLine({ value: each }, redactor.redactText)) as { value: unknown }).value;
}

/** Learned values shorter than this are masked only where they stood: they would mask innocent text. */
const MIN_LEARNED_CHARS = 6;
/** The most redacted lines used as templates, and lines of a replayed string matched against them. */
const MAX_TEMPLATES = 200;
const MAX_LINES_MATCHED = 20_000;

/**
 * Hides, in a replayed value, the secrets the recording redacted. The replay's redactor may not
 * know a secret the recording's did (an API key of that session, a variable set then), so where
 * a recorded string (or line) reads `…KEY=[REDACTED]…` and the replayed one reads the same around
 * a value, that value is masked, and masked wherever else it appears. A diff then never shows a
 * secret the trace kept out.
 */
export class RecordedSecrets {
  private readonly learned = new Set<string>();

  mask(recorded: unknown, replayed: unknown): unknown {
    const templates = redactedLines(recorded);
    if (templates.length === 0 && this.learned.size === 0) return replayed;
    const paired = this.maskPaired(recorded, replayed, templates);
    return redactDeep(paired, (text) => this.maskLearned(text));
  }

  /** A text (an error message, a line about the call) with every learned secret masked. */
  maskLearned(text: string): string {
    let masked = text;
    for (const secret of this.learned) masked = masked.replaceAll(secret, REDACTED);
    return masked;
  }

  private maskPaired(recorded: unknown, replayed: unknown, templates: readonly string[][]): unknown {
    if (typeof replayed === "string") {
      if (typeof recorded === "string" && recorded.includes(REDACTED)) {
        const captures = matchTemplate(recorded.split(REDACTED), replayed);
        if (captures) {
          this.learn(captures);
          return recorded;
        }
      }
      return this.maskLines(replayed, templates);
    }
    if (Array.isArray(replayed))
      return replayed.map((item, index) =>
        this.maskPaired(Array.isArray(recorded) ? recorded[index] : undefined, item, templates),
      );
    if (typeof replayed === "object" && replayed !== null) {
      const other =
        typeof recorded === "object" && recorded !== null ? (recorded as Record<string, unknown>) : {};
      return Object.fromEntries(
        Object.entries(replayed).map(([key, item]) => [key, this.maskPaired(other[key], item, templates)]),
      );
    }
    return replayed;
  }

  private maskLines(text: string, templates: readonly string[][]): string {
    if (templates.length === 0) return text;
    const lines = text.split("\n");
    if (lines.length > MAX_LINES_MATCHED) return text;
    return lines
      .map((line) => {
        for (const parts of templates) {
          const captures = matchTemplate(parts, line);
          if (!captures) continue;
          this.learn(captures);
          return parts.join(REDACTED);
        }
        return line;
      })
      .join("\n");
  }

  private learn(captures: readonly string[]): void {
    for (const capture of captures)
      if (capture.length >= MIN_LEARNED_CHARS && !capture.includes(REDACTED)) this.learned.add(capture);
  }
}

/** Every line of every string in `value` that holds a redaction, split around it. */
function redactedLines(value: unknown): string[][] {
  const found = new Set<string>();
  redactDeep(value, (text) => {
    if (found.size < MAX_TEMPLATES && text.includes(REDACTED))
      for (const line of text.split("\n"))
        if (line.includes(REDACTED) && found.size < MAX_TEMPLATES) found.add(line);
    return text;
  });
  return [...found].map((line) => line.split(REDACTED));
}

/**
 * The values that stand where `parts` (a text split around its redactions) had `[REDACTED]`, when
 * `text` reads the same around them; undefined when it does not. Literal pieces are found left
 * to right, so the match costs one scan of the text.
 */
export function matchTemplate(parts: readonly string[], text: string): string[] | undefined {
  const first = parts[0] ?? "";
  const last = parts.at(-1) ?? "";
  if (parts.length < 2 || !text.startsWith(first) || !text.endsWith(last)) return undefined;
  const captures: string[] = [];
  let cursor = first.length;
  for (const part of parts.slice(1, -1)) {
    const at = text.indexOf(part, cursor + 1);
    if (at === -1) return undefined;
    captures.push(text.slice(cursor, at));
    cursor = at + part.length;
  }
  const end = text.length - last.length;
  if (end <= cursor) return undefined;
  captures.push(text.slice(cursor, end));
  return captures;
}
