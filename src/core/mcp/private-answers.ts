/** Requests whose answers hold what the person typed or the model wrote for the server. */
const PRIVATE_METHODS = new Set(["elicitation/create", "sampling/createMessage"]);

const WITHHELD = "[withheld from the trace: what the person typed or the model wrote for the server]";

/**
 * Keeps the answers to a server's elicitation and sampling requests out of the wire trace: the
 * fields a person filled in (which may be anything they typed in confidence) and the text the
 * model wrote. The frame stays, with its id, action and shape; only those values are replaced.
 */
export class PrivateAnswers {
  private readonly pending = new Set<string | number>();

  /** The frame as the trace may keep it. */
  forTrace(direction: "send" | "receive", message: unknown): unknown {
    if (!isRecord(message)) return message;
    const { id } = message;
    if (typeof id !== "string" && typeof id !== "number") return message;
    if (direction === "receive" && typeof message.method === "string") {
      if (PRIVATE_METHODS.has(message.method)) this.pending.add(id);
      return message;
    }
    if (direction !== "send" || !this.pending.delete(id) || !isRecord(message.result)) return message;
    const result = { ...message.result };
    if (result.content !== undefined) result.content = WITHHELD;
    return { ...message, result };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
