import type { FailureClass } from "../policy/failure-class.js";
import type { SecretRedactor } from "../policy/redact-secrets.js";
import type { CallKind, RecordedOutcome } from "../trace/recorded-calls.js";
import { withoutPaths, type JsonPath } from "./json-path.js";
import { redactLikeTrace, type RecordedSecrets } from "./recorded-secrets.js";
import { diffValues, type Difference } from "./value-diff.js";

/** What a call got when it was sent again: the server's result, or the error instead of one. */
export type ReplayedOutcome =
  | { kind: "result"; value: unknown }
  | { kind: "error"; failure: FailureClass | undefined; code: number | undefined; message: string };

export interface Comparison {
  differences: Difference[];
  /** The replayed answer as compared (redacted, recorded secrets masked, ignored paths left out). */
  replayed: unknown;
}

/**
 * Compares a replayed answer with the recorded one. Both are redacted alike first, the replayed
 * one also loses whatever the recording redacted (RecordedSecrets), and the ignored paths are
 * dropped from both. What counts of an answer: a tool result's content, structuredContent and
 * isError; a read's contents; a prompt's description and messages; for an error, its JSON-RPC
 * code and message when the recording has them, else its failure class.
 */
export async function compareAnswers(
  kind: CallKind,
  recorded: RecordedOutcome,
  replayed: ReplayedOutcome,
  context: { redactor: SecretRedactor; secrets: RecordedSecrets; ignore: readonly JsonPath[] },
): Promise<Comparison> {
  const { redactor, secrets, ignore } = context;
  const kept = await redactOutcome(recorded, redactor);
  const before = comparable(kind, kept, kept);
  const again = await redactOutcome(replayed, redactor);
  const after =
    kept.kind === "preview"
      ? previewOf(secrets.mask(before, again) as ReplayedOutcome, kept.preview.length, replayed)
      : secrets.mask(before, comparable(kind, again, kept));
  const left = withoutPaths(before, ignore);
  const right = withoutPaths(after, ignore);
  return { differences: diffValues(left, right), replayed: right };
}

async function redactOutcome<T extends RecordedOutcome | ReplayedOutcome>(
  outcome: T,
  redactor: SecretRedactor,
): Promise<T> {
  return (await redactLikeTrace(outcome, redactor)) as T;
}

/** The part of an answer that is compared, shaped by what the recording kept of its own answer. */
function comparable(
  kind: CallKind,
  outcome: RecordedOutcome | ReplayedOutcome,
  recorded: RecordedOutcome,
): unknown {
  switch (outcome.kind) {
    case "preview":
      return { preview: outcome.preview, chars: outcome.chars };
    case "error":
      if (recorded.kind !== "error")
        return { error: { failure: outcome.failure, code: outcome.code, message: outcome.message } };
      // An error recorded from the wire has its JSON-RPC code and message; one recorded from a
      // tool call (a timeout, a crash) has only its class, which is then what can be compared.
      return {
        error:
          recorded.code === undefined
            ? { failure: outcome.failure }
            : { code: outcome.code, message: outcome.message },
      };
    case "result":
      return resultFields(kind, outcome.value);
  }
}

function resultFields(kind: CallKind, value: unknown): unknown {
  const result = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  switch (kind) {
    case "tool":
      return {
        content: result.content ?? [],
        ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
        isError: result.isError === true,
      };
    case "resource":
      return { contents: result.contents ?? [] };
    case "prompt":
      return {
        ...(result.description === undefined ? {} : { description: result.description }),
        messages: result.messages ?? [],
      };
  }
}

/**
 * A replayed answer the way a trace keeps a result too large to keep whole: the start of its
 * redacted JSON, as long as the recorded start, and the length of its JSON as it came (the
 * trace counts a value before redacting it).
 */
function previewOf(outcome: ReplayedOutcome, length: number, raw: ReplayedOutcome): unknown {
  if (outcome.kind !== "result")
    return { error: { failure: outcome.failure, code: outcome.code, message: outcome.message } };
  const text = JSON.stringify(outcome.value);
  const chars = raw.kind === "result" ? JSON.stringify(raw.value).length : text.length;
  return { preview: text.slice(0, length), chars };
}
