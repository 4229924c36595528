import type { WireFrame } from "../core/mcp/types.js";
import { isTaskAnswer, lacksContent } from "../core/mcp/tool-result-kinds.js";

/**
 * The answer to `mcpterm call`'s tools/call as it came over the wire, before the SDK parsed it:
 * the SDK adds what a 2025 result left out (`content: []`) and drops what it read (`resultType`),
 * and `call --json` shows a server's author the result the server sent. A task's answer is only
 * its start: the result is then the SDK's, from the task's end.
 */
export class CallAnswerTap {
  /** The call's id, as idKey writes it. */
  private asked: string | undefined;
  private answer: Record<string, unknown> | undefined;

  readonly onFrame = (frame: WireFrame): void => {
    const message = frame.message as { id?: unknown; method?: unknown; result?: unknown };
    if (frame.direction === "send" && message.method === "tools/call") {
      this.asked = idKey(message.id);
      this.answer = undefined;
      return;
    }
    if (frame.direction !== "receive" || message.method !== undefined || this.asked === undefined) return;
    // The first answer to the call is the one the SDK took (a second would be a slip), also
    // under its id in another type (`"5"` for 5), which the SDK takes too.
    if (idKey(message.id) !== this.asked || this.answer !== undefined) return;
    const { result } = message;
    if (typeof result === "object" && result !== null && !Array.isArray(result) && !isTaskAnswer(result))
      this.answer = result as Record<string, unknown>;
  };

  /** The result as the server sent it, when the call's answer was one (not a task, not an error). */
  asArrived(): Record<string, unknown> | undefined {
    return this.answer;
  }

  /** What the answer breaks that the SDK let pass: a result without content. */
  problems(): string[] {
    return this.answer !== undefined && lacksContent(this.answer)
      ? [
          "the result has no content array, which MCP requires of every tool result (the SDK reads it as [] from a 2025-11-25 server; a stricter client fails the call)",
        ]
      : [];
  }
}

/** An id as text, a number and its string alike (`5` and `"5"`). */
function idKey(id: unknown): string {
  // An id is a string or a number in JSON-RPC; anything else (null, an object) is only told apart.
  return typeof id === "string" || typeof id === "number" ? String(id) : `json:${JSON.stringify(id)}`;
}
