/**
 * What kind of answer a tools/call got, read from the result as it came over the wire (before the
 * SDK parsed it): doctor's json-rpc step and `call --json` both need to know.
 */

/** A finished tool call's result (not a task, not 2026's question for input) that has no content array. */
export function lacksContent(result: unknown): boolean {
  if (!isRecord(result) || isTaskAnswer(result)) return false;
  if (result.resultType !== undefined && result.resultType !== "complete") return false;
  return !Array.isArray(result.content);
}

/** A tools/call answered with a task (2025-11-25's CreateTaskResult, or 2026's `resultType: "task"`). */
export function isTaskAnswer(result: unknown): boolean {
  return (
    isRecord(result) && (result.resultType === "task" || (isRecord(result.task) && !("content" in result)))
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
