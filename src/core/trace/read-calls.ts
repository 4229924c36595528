import { MAX_NESTING, withinNesting } from "../policy/nesting-limit.js";
import { UsageError } from "../errors.js";
import { formatBytes } from "../text/index.js";
import { callFromLine } from "./calls-file.js";
import { MAX_LINE_CHARS, readJsonLines } from "./json-lines.js";
import { isPlainObject, type RecordedCall } from "./recorded-calls.js";
import { TraceCallCollector } from "./trace-calls.js";

export interface RecordedCalls {
  /** A session's trace, or a calls file (`mcpterm trace --calls`, maybe edited by hand). */
  format: "trace" | "calls";
  calls: RecordedCall[];
  /** What was skipped or left out, one sentence each. */
  notes: string[];
}

/** More calls than any session makes by hand; a file with more is split first. */
export const MAX_CALLS = 10_000;

/**
 * The calls of a trace or a calls file. The file is untrusted input: lines that are not JSON or
 * too long are skipped with a note in a trace (a killed session leaves a half-written last line),
 * and are an error in a calls file, which a person wrote and must fix. Throws UsageError for a
 * file that cannot be read or holds no calls.
 */
export async function readRecordedCalls(file: string, maxLineChars = MAX_LINE_CHARS): Promise<RecordedCalls> {
  const collector = new TraceCallCollector();
  const calls: RecordedCall[] = [];
  const skipped: Skipped = { notJson: [], notRecord: [], tooLong: [], tooDeep: [] };
  let format: RecordedCalls["format"] | undefined;
  try {
    for await (const line of readJsonLines(file, maxLineChars)) {
      if ("tooLong" in line) {
        if (format === "calls")
          throw new UsageError(
            `Line ${line.number} of ${file} is ${formatBytes(line.tooLong)} long, more than the ${formatBytes(maxLineChars)} a line may be; shorten it.`,
          );
        skipped.tooLong.push(line.number);
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch {
        if (format === "calls")
          throw new UsageError(`Line ${line.number} of ${file} is not JSON; fix it or remove it.`);
        skipped.notJson.push(line.number);
        continue;
      }
      // Read to MAX_NESTING, as a server's message is; a calls file, which is the author's, is
      // refused instead, and a trace's cut lines are named in the notes, never replayed silently.
      const within = withinNesting(value);
      if (within !== value) {
        if (format === "calls" || formatOf(value) === "calls")
          throw new UsageError(
            `Line ${line.number} of ${file} nests deeper than ${MAX_NESTING} levels of objects and arrays; flatten it.`,
          );
        skipped.tooDeep.push(line.number);
        value = within;
      }
      format ??= formatOf(value);
      if (format === "calls") {
        const call = isPlainObject(value)
          ? callFromLine(value, line.number)
          : `line ${line.number} is not a JSON object.`;
        if (typeof call === "string") throw new UsageError(`${file}, ${call}`);
        calls.push(call);
      } else if (isPlainObject(value) && typeof value.type === "string") collector.add(value, line.number);
      else skipped.notRecord.push(line.number);
      if (calls.length > MAX_CALLS)
        throw new UsageError(`${file} holds more than ${MAX_CALLS} calls; split it into smaller files.`);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === "ENOENT"
        ? `There is no trace file at ${file}.`
        : `Cannot read ${file}: ${(error as Error).message}.`,
      { cause: error },
    );
  }
  const collected = format === "calls" ? { calls, notes: [] } : collector.finish();
  if (collected.calls.length > MAX_CALLS)
    throw new UsageError(`${file} holds more than ${MAX_CALLS} calls; split it into smaller files.`);
  return {
    format: format ?? "trace",
    calls: collected.calls,
    notes: [...skippedNotes(skipped, maxLineChars), ...collected.notes],
  };
}

/** The first object decides: trace records have a `type`, calls a `kind`. */
function formatOf(value: unknown): RecordedCalls["format"] {
  return isPlainObject(value) && value.type === undefined && value.kind !== undefined ? "calls" : "trace";
}

interface Skipped {
  notJson: number[];
  notRecord: number[];
  tooLong: number[];
  tooDeep: number[];
}

function skippedNotes(skipped: Skipped, maxLineChars: number): string[] {
  const notes: string[] = [];
  if (skipped.notJson.length > 0)
    notes.push(`${count(skipped.notJson, "line")} not JSON (${lines(skipped.notJson)}); skipped.`);
  if (skipped.notRecord.length > 0)
    notes.push(
      `${count(skipped.notRecord, "line")} not a trace record (${lines(skipped.notRecord)}); skipped.`,
    );
  if (skipped.tooLong.length > 0)
    notes.push(
      `${count(skipped.tooLong, "line")} longer than ${formatBytes(maxLineChars)}, which mcpterm never writes (${lines(skipped.tooLong)}); skipped.`,
    );
  if (skipped.tooDeep.length > 0)
    notes.push(
      `${count(skipped.tooDeep, "line")} nested deeper than ${MAX_NESTING} levels (${lines(skipped.tooDeep)}); read to that depth, what lay deeper left out.`,
    );
  return notes;
}

function count(numbers: readonly number[], noun: string): string {
  return numbers.length === 1 ? `1 ${noun} is` : `${numbers.length} ${noun}s are`;
}

function lines(numbers: readonly number[]): string {
  const shown = numbers.slice(0, 5).join(", ");
  const more = numbers.length > 5 ? ` and ${numbers.length - 5} more` : "";
  return `${numbers.length === 1 ? "line" : "lines"} ${shown}${more}`;
}
