import type { ChatMessage, ToolCallRequest } from "../llm/types.js";

/**
 * A step's calls, each under an id no other call of the conversation has: the first call to use
 * an id keeps it, a later one gets the id with the first free `_2`, `_3`… after it. Everything
 * after the model keys a call by its id (the approval panel, each call's result, the events, the
 * trace), and a model may give two calls one id: a careless one numbers every step's calls from
 * `call_0` again, a hostile one shares an id between a harmless call and the one it wants
 * approved, so that the panel shows the first while the second is asked about. The conversation
 * keeps the calls under these ids, so the results the model reads answer them.
 */
export function withUniqueIds(
  calls: readonly ToolCallRequest[],
  conversation: readonly ChatMessage[],
  /**
   * The ids the session gave its calls so far, which this adds to: a compaction takes earlier
   * calls out of the conversation, and the transcript and the saved session still know them.
   */
  taken: Set<string> = new Set(),
): ToolCallRequest[] {
  for (const message of conversation)
    if (message.role === "assistant") for (const call of message.toolCalls ?? []) taken.add(call.id);
  // A renamed call must not take the id a later call of the step brings itself.
  const brought = new Set(calls.map((call) => call.id));
  return calls.map((call) => {
    let id = call.id;
    if (taken.has(id)) {
      let suffix = 2;
      while (taken.has(`${call.id}_${suffix}`) || brought.has(`${call.id}_${suffix}`)) suffix += 1;
      id = `${call.id}_${suffix}`;
    }
    taken.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
